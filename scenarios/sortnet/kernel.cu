// Batcher's odd-even merge sort of key/value pairs, one chunk of 2 * ntid
// pairs per CTA in shared memory; every thread owns one comparator per step.
// Step (run, stride) merges sorted runs of `run` elements into runs of
// 2 * run. The first step of a merge (stride == run) compares the two halves
// element by element; the later steps compare an element with the one
// `stride` after it, but only where both lie in the same merged run: that
// ownership test is the programmatic branch of SORTNW (in every group of
// `run` threads the last `stride` idle: a fixed lane pattern, aligned across
// warps while run <= the warp size). The swap
// itself, `(key_a > key_b) == dir`, is the data-dependent branch the SLP
// paper quotes for SORTNW. Even CTAs sort ascending, odd CTAs descending.
#include "../common/cuda_shim.h"

// Most pairs per chunk (a power of two): twice the largest block.
#define SORTNET_MAX_CHUNK 256

// Orders (a, b) ascending when dir is 1, descending when dir is 0, moving the
// values with their keys.
__device__ static inline void compare_exchange(unsigned* key, unsigned* val, unsigned a, unsigned b,
                                               unsigned dir) {
  unsigned ka = key[a], kb = key[b];
  if ((ka > kb) == dir) {
    unsigned va = val[a];
    key[a] = kb;
    key[b] = ka;
    val[a] = val[b];
    val[b] = va;
  }
}

// Sorts the pairs (keys[i], vals[i]) of chunk ctaid, i in [ctaid * 2 * ntid,
// + 2 * ntid), by key. The chunk length is the run-time block size, so the
// loops stay loops instead of being unrolled.
extern "C" __global__ void oddeven_merge_sort(unsigned* keys, unsigned* vals) {
  __shared__ unsigned s_key[SORTNET_MAX_CHUNK];
  __shared__ unsigned s_val[SORTNET_MAX_CHUNK];
  unsigned t = tid_x();
  unsigned half = ntid_x();
  unsigned chunk_len = 2 * half;
  unsigned base = ctaid_x() * chunk_len;
  unsigned dir = (ctaid_x() & 1) == 0;
  s_key[t] = keys[base + t];
  s_val[t] = vals[base + t];
  s_key[t + half] = keys[base + t + half];
  s_val[t + half] = vals[base + t + half];
  __syncthreads();
  for (unsigned run = 1; run < chunk_len; run <<= 1) {
    for (unsigned stride = run; stride > 0; stride >>= 1) {
      // Thread t's slot in the lower half of its group of 2 * stride.
      unsigned pos = 2 * t - (t & (stride - 1));
      if (stride == run) {
        compare_exchange(s_key, s_val, pos, pos + stride, dir);
      } else {
        unsigned a = pos + stride, b = a + stride;
        // Both ends inside the same merged run of 2 * run elements.
        if ((a & ~(2 * run - 1)) == (b & ~(2 * run - 1))) compare_exchange(s_key, s_val, a, b, dir);
      }
      __syncthreads();
    }
  }
  keys[base + t] = s_key[t];
  vals[base + t] = s_val[t];
  keys[base + t + half] = s_key[t + half];
  vals[base + t + half] = s_val[t + half];
}
