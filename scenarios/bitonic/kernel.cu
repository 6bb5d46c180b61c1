// Bitonic sort of one 256-element chunk per CTA in shared memory, one element
// per thread. In every merge step the thread holding the lower index i of a
// pair (i, i ^ j) does the compare-exchange: `partner > i` is the programmatic
// branch of BITONIC (half the threads idle, in lane-aligned groups), and
// whether the pair is out of order is the data-dependent one.
#include "../common/cuda_shim.h"

// Most elements per chunk (a power of two); the shared array is sized for it.
#define BITONIC_MAX_CHUNK 256

// Sorts keys[ctaid * ntid .. + ntid) ascending; the chunk is the run-time
// block size, so the merge loops stay loops instead of being fully unrolled.
extern "C" __global__ void bitonic_chunks(unsigned* keys) {
  __shared__ unsigned s[BITONIC_MAX_CHUNK];
  unsigned i = tid_x();
  unsigned chunk_size = ntid_x();
  unsigned* chunk = keys + ctaid_x() * chunk_size;
  s[i] = chunk[i];
  __syncthreads();
  // size: length of the bitonic sequences being merged; stride: distance of
  // the pairs compared within one merge step.
  for (unsigned size = 2; size <= chunk_size; size <<= 1) {
    for (unsigned stride = size >> 1; stride > 0; stride >>= 1) {
      unsigned partner = i ^ stride;
      if (partner > i) {
        // Blocks of `size` alternate direction so that pairs of them form
        // bitonic sequences for the next, larger merge.
        bool ascending = (i & size) == 0;
        unsigned a = s[i], b = s[partner];
        if ((a > b) == ascending) {
          s[i] = b;
          s[partner] = a;
        }
      }
      __syncthreads();
    }
  }
  chunk[i] = s[i];
}
