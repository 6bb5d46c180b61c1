// Collatz trajectory lengths: each thread counts the steps from its loaded
// start value to 1 (halve if even, 3v + 1 if odd), capped at max_steps. The
// loop's trip count and the odd/even choice inside it both depend on loaded
// data: data-dependent, loop-trip divergence. A start value of 0 never
// reaches 1 and runs to the cap.
#include "../common/cuda_shim.h"

extern "C" __global__ void collatz_steps(const unsigned* start, unsigned* steps, unsigned n,
                                         unsigned max_steps) {
  unsigned i = ctaid_x() * ntid_x() + tid_x();
  if (i >= n) return;
  // 64-bit: trajectories of 32-bit start values climb past 2^32.
  unsigned long long v = start[i];
  unsigned count = 0;
  while (v != 1 && count < max_steps) {
    if (v & 1)
      v = 3 * v + 1;
    else
      v >>= 1;
    ++count;
  }
  steps[i] = count;
}
