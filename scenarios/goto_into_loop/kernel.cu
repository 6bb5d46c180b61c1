// A goto into the middle of a loop body from before the loop, one of the PPC
// paper's unstructured micro-benchmarks (seed 000, Fig. 6). Each thread
// hashes its input word for a data-dependent number of rounds; a round has
// two halves. Threads whose word carries a ready-made header (bit 0) mix it
// in first, and when the header is also complete (bit 1) they resume in the
// middle of the first round, skipping the pre-loop step and the first half:
//
//   if (x & 1) { X; if (x & 2) goto mid; Y; }
//   Z;
//   do { L1; mid: L2; } while (--rounds);
//
// The loop has two entries (irreducible CFG). Under the IPDOM stack the
// `x & 1` branch reconverges only at `mid`, so the threads that skipped the
// header and those that took it without the shortcut run Z and L1 in two
// separate passes; a scheme that merges paths by PC can run them once.
#include "../common/cuda_shim.h"

extern "C" __global__ void goto_into_loop(const unsigned* in, const unsigned* rounds_in,
                                          const unsigned* table, unsigned* out, unsigned n) {
  unsigned i = ctaid_x() * ntid_x() + tid_x();
  if (i >= n) return;
  unsigned x = in[i];
  unsigned rounds = rounds_in[i];  // at least 1
  unsigned h = x ^ 0x811C9DC5u;
  if (x & 1) {
    // X: mix in the header.
    h = (h * 0x01000193u) ^ table[x & 255];
    if (x & 2) goto mid;
    // Y
    h += table[(h >> 8) & 255];
  }
  // Z: the pre-loop step.
  h ^= x >> 3;
  do {
    // L1: first half of a round.
    h = (h ^ (h >> 15)) * 0x2C1B3C6Du;
  mid:
    // L2: second half.
    h += table[(h >> 24) & 255];
    h ^= h << 5;
  } while (--rounds != 0);
  out[i] = h;
}
