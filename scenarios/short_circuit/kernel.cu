// Short-circuit conditions with shared tails, one of the PPC paper's
// unstructured micro-benchmarks (seed 000, Fig. 6):
//
//   if (a && b)      { X; goto S; }
//   else if (a || c) { Y; S: ... }
//   else             { Z; }
//   T;
//
// Short-circuit evaluation gives four tests: a, then b (when a holds) or c
// (when it does not); `a || c` needs no second test of a. So Y is entered
// from two branches (b false, c true) and X joins Y's tail S: the CFG is not
// series-parallel. Under the IPDOM stack the a-branch reconverges only at T,
// so a warp runs Y and S once for each side of it; a scheme that merges paths
// by PC can run them once for all. a, b and c are tests of per-thread loaded
// data; b and c come from separate arrays, loaded only when they are needed,
// so clang keeps every test a branch (it may not speculate the loads).
#include "../common/cuda_shim.h"

extern "C" __global__ void short_circuit(const unsigned* keys, const unsigned* bflags,
                                         const unsigned* cflags, const unsigned* table,
                                         unsigned* out, unsigned n) {
  unsigned i = ctaid_x() * ntid_x() + tid_x();
  if (i >= n) return;
  unsigned key = keys[i];
  unsigned r;
  bool a = key % 3 != 0;  // 2/3 of the threads
  if (a && (bflags[i] & 1) != 0) {
    // X
    r = table[key & 255] ^ key;
    r = r * 0x9E3779B1u;
    goto shared;
  } else if (a || (cflags[i] & 1) != 0) {
    // Y
    r = table[(key >> 8) & 255] + key;
    r ^= r << 7;
  shared:
    // S: the tail X and Y share.
    r = (r ^ (r >> 15)) * 0x2C1B3C6Du;
    r += table[(r >> 24) & 255];
  } else {
    // Z
    r = table[(key >> 16) & 255] - key;
  }
  // T
  out[i] = r ^ (r >> 13);
}
