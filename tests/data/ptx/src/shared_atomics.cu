// Static and dynamic shared memory, __syncthreads, and atomics on shared and
// global memory.
#include "compat.h"

__global__ void histogram(unsigned* bins, const int* data, int n) {
  __shared__ int local[32];
  extern __shared__ int dyn[];
  int t = TID_X;
  if (t < 32) local[t] = 0;
  __syncthreads();
  for (int i = t; i < n; i += NTID_X) atomicAdd(&local[data[i] & 31], 1);
  __syncthreads();
  dyn[t] = local[t & 31];
  __syncthreads();
  if (t < 32) {
    atomicAdd((int*)&bins[t], dyn[t]);
    atomicMax((int*)&bins[32], dyn[t]);
    atomicMin(&bins[33], (unsigned)dyn[t]);
    atomicExch((int*)&bins[34], t);
    atomicCAS((int*)&bins[35], 0, t);
    atomicOr((int*)&bins[36], 1 << t);
    atomicInc(&bins[37], 100u);
    atomicAdd((unsigned long long*)&bins[38], 1ull);
  }
}

__global__ void reduce(float* out, const float* in) {
  __shared__ float s[256];
  int t = TID_X;
  s[t] = in[CTAID_X * NTID_X + t];
  __syncthreads();
  for (int stride = NTID_X / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) atomicAdd(out, s[0]);
}
