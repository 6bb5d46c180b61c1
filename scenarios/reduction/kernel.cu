// Tree reduction in shared memory with interleaved addressing: at step k only
// threads whose index is a multiple of 2k add in their neighbour k away. The
// `t % (2 * k) == 0` test is the programmatic divergence of REDUCT kernel 0:
// the active threads thin out by half each step and stay aligned to the same
// lanes of every warp.
#include "../common/cuda_shim.h"

// Most threads per CTA (a power of two); the shared array is sized for it.
#define REDUCTION_MAX_BLOCK 256

// One partial sum per CTA of in[ctaid * ntid .. + ntid) into partial[ctaid].
// The loop runs to the run-time block size, as in the original kernel, so the
// compiler keeps it a loop and keeps the `%` rather than unrolling it away.
extern "C" __global__ void reduce_interleaved(const int* in, int* partial) {
  __shared__ int s[REDUCTION_MAX_BLOCK];
  unsigned t = tid_x();
  unsigned block = ntid_x();
  s[t] = in[ctaid_x() * block + t];
  __syncthreads();
  for (unsigned k = 1; k < block; k *= 2) {
    if (t % (2 * k) == 0) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) partial[ctaid_x()] = s[0];
}
