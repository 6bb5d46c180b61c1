// The CUDA math library's double-precision functions over an input array.
#include "libdevice_shim.h"

extern "C" __global__ void math_f64(const double* x, const double* y, double* out, int n) {
  const int i = BLOCK_IDX_X * BLOCK_DIM_X + THREAD_IDX_X;
  if (i >= n) return;
  const double a = x[i], b = y[i];
  out[0 * n + i] = sin(a);
  out[1 * n + i] = cos(a);
  out[2 * n + i] = exp(a);
  out[3 * n + i] = log(b);
  out[4 * n + i] = pow(b, a);
  out[5 * n + i] = erf(a);
  out[6 * n + i] = sqrt(b);
}
