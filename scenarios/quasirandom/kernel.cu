// Sobol quasirandom sequence generator (QSRDM). Point p of dimension d is the
// XOR of the direction numbers of d selected by the set bits of the sequence
// index `first + p`: the bit loop tests each bit, `if (index & 1)`, and stops
// after the highest set bit. Both the per-bit XOR and the loop's trip count
// depend on the thread's index and the kernel parameter `first` only:
// programmatic divergence (within a warp the low bits of the index differ from
// lane to lane in a fixed pattern) and programmatic loop trips.
#include "../common/cuda_shim.h"

#define QSRDM_BITS 32  // direction numbers per dimension

// out[d * points + p] = XOR of directions[d * 32 + b] over the set bits b of
// first + p, for p in [0, points); CTA row ctaid_y is dimension d, and the
// threads of the CTA row stride over the points.
extern "C" __global__ void sobol_points(const unsigned* directions, unsigned* out, unsigned first,
                                        unsigned points) {
  unsigned dim = ctaid_y();
  const unsigned* v = directions + dim * QSRDM_BITS;
  unsigned* row = out + dim * points;
  unsigned stride = nctaid_x() * ntid_x();
  for (unsigned p = ctaid_x() * ntid_x() + tid_x(); p < points; p += stride) {
    unsigned result = 0;
    unsigned bit = 0;
    for (unsigned index = first + p; index != 0; index >>= 1, ++bit) {
      if (index & 1) result ^= v[bit];
    }
    row[p] = result;
  }
}
