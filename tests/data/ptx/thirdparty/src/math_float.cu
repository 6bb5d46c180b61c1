// The CUDA math library's accurate single-precision functions (not the
// __sinf-style intrinsics) evaluated over an input array: the PTX is the
// library's own range reduction, polynomial and special-case code.
#include "libdevice_shim.h"

extern "C" __global__ void math_f32(const float* x, const float* y, float* out, int n) {
  const int i = BLOCK_IDX_X * BLOCK_DIM_X + THREAD_IDX_X;
  if (i >= n) return;
  const float a = x[i], b = y[i];
  out[0 * n + i] = sinf(a);
  out[1 * n + i] = cosf(a);
  out[2 * n + i] = expf(a);
  out[3 * n + i] = logf(b);
  out[4 * n + i] = powf(b, a);
  out[5 * n + i] = erff(a);
  out[6 * n + i] = sqrtf(b);
}
