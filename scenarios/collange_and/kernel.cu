// Collange's example of a conjunction (seed 002, Collange & Brunie, CompAS
// 2017):
//
//   if (A && B) C; else D;  E;
//
// With short-circuit evaluation, D is reached from two branches: from the
// test of A when A is false and from the test of B when A holds but B does
// not. The CFG is not series-parallel (unstructured). Under the IPDOM stack
// both branches reconverge only at E, so a warp runs D twice, once for the
// threads where A failed and once for those where B failed; a scheme that
// merges paths by PC can run D once for both groups. A and B are tests of
// per-thread loaded data, independent of each other.
#include "../common/cuda_shim.h"

// A thread's record: key and flags. A: key is not a multiple of 4 (3/4 of
// the threads); B: flag bit 0 set (1/2). B loads the flag word only once A
// holds (short-circuit), and C and D each look a value up in their own
// 256-entry table: loads the compiler may not speculate, so clang keeps the
// two tests as two branches and C and D as real blocks instead of folding
// them into one predicate and selects.
extern "C" __global__ void collange_and(const unsigned* keys, const unsigned* flags,
                                        const unsigned* table_c, const unsigned* table_d,
                                        unsigned* out, unsigned n) {
  unsigned i = ctaid_x() * ntid_x() + tid_x();
  if (i >= n) return;
  unsigned key = keys[i];
  unsigned r;
  if (key % 4 != 0 && (flags[i] & 1) != 0) {
    // C
    r = table_c[(key >> 2) & 255];
    r = (r ^ flags[i]) * 0x2545F491u;
  } else {
    // D
    r = table_d[(key >> 8) & 255];
    r = r + key * 3u;
    r ^= r >> 11;
  }
  // E
  out[i] = (r ^ (r >> 16)) + i;
}
