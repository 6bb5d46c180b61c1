// Floating-point math, intrinsics and int/float/double conversions.
#include "compat.h"

__global__ void float_math(float* out, const float* in, double* dout, int* iout) {
  int t = TID_X;
  float x = in[t];
  float y = sqrtf(fabsf(x)) + __sinf(x) * __cosf(x) + fmaf(x, 2.5f, -1.0f) + __expf(x * 0.1f) +
            __log2f(fabsf(x) + 1.0f);
  y += rsqrtf(fabsf(x) + 1.0f) + fminf(x, 0.5f) + fmaxf(x, -0.5f) + __fdividef(x, 3.0f) +
       x / (y + 1.0f);
  double d = (double)x * 1.5;
  d = sqrt(d * d + 1.0) / 3.0;
  dout[t] = d;
  iout[t] = (int)y + (int)(unsigned)(x * 100.0f) + (int)(long long)d + (int)(short)t + t / 7 +
            t % 5 + __popc(t) + __clz(t) + __brev(t) + __mul24(t, t) + __mulhi(t, 77) +
            __byte_perm(t, 5, 0x3210);
  out[t] = y + (float)t + (float)(unsigned)t * 0.5f + (float)d + (float)(long long)iout[t];
}
