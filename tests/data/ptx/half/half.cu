// Half-precision and bfloat16 arithmetic through CUDA's cuda_fp16.h and
// cuda_bf16.h intrinsics, for tests/exec/test_half_precision.cc. Each kernel
// writes result k of element i to out[k * n + i]. Regenerate the PTX with
//   nvcc -ptx -arch=sm_80 -O3 half.cu -o half.sm80.ptx
//   nvcc -ptx -arch=sm_90 -O3 half.cu -o half.sm90.ptx
// (sm_80 builds bfloat16 add/mul from fma.rn.bf16 and widens bf16 with mov;
// sm_90 has add/mul.bf16 and cvt.f32.bf16).
#include <cuda_bf16.h>
#include <cuda_fp16.h>

template <class H>
__device__ void scalar_ops(const H* a, const H* b, const H* c, H* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const H x = a[i], y = b[i], z = c[i];
  H* o = out + i;
  o[0 * n] = __hadd(x, y);
  o[1 * n] = __hsub(x, y);
  o[2 * n] = __hmul(x, y);
  o[3 * n] = __hfma(x, y, z);
  o[4 * n] = __hmin(x, y);
  o[5 * n] = __hmax(x, y);
  o[6 * n] = __hneg(x);
  o[7 * n] = __habs(x);
  o[8 * n] = __hfma_relu(x, y, z);
  o[9 * n] = __hmin_nan(x, y);
  o[10 * n] = __hmax_nan(x, y);
  o[11 * n] = __hlt(x, y) ? z : x;
  o[12 * n] = __hgeu(x, y) ? y : z;
  o[13 * n] = __hne(x, y) ? x : y;
}

template <class H2>
__device__ void pair_ops(const H2* a, const H2* b, const H2* c, H2* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const H2 x = a[i], y = b[i], z = c[i];
  H2* o = out + i;
  o[0 * n] = __hadd2(x, y);
  o[1 * n] = __hsub2(x, y);
  o[2 * n] = __hmul2(x, y);
  o[3 * n] = __hfma2(x, y, z);
  o[4 * n] = __hmin2(x, y);
  o[5 * n] = __hmax2(x, y);
  o[6 * n] = __hneg2(x);
  o[7 * n] = __habs2(x);
  o[8 * n] = __hfma2_relu(x, y, z);
  o[9 * n] = __hmin2_nan(x, y);
  o[10 * n] = __hmax2_nan(x, y);
  o[11 * n] = __hlt2(x, y);                 // 1.0 or 0.0 per half
  o[12 * n] = __hbgeu2(x, y) ? y : z;       // both halves
  o[13 * n] = __hbne2(x, y) ? x : y;
}

extern "C" __global__ void f16_ops(const __half* a, const __half* b, const __half* c, __half* out,
                                   int n) {
  scalar_ops(a, b, c, out, n);
}
extern "C" __global__ void bf16_ops(const __nv_bfloat16* a, const __nv_bfloat16* b,
                                    const __nv_bfloat16* c, __nv_bfloat16* out, int n) {
  scalar_ops(a, b, c, out, n);
}
extern "C" __global__ void f16x2_ops(const __half2* a, const __half2* b, const __half2* c,
                                     __half2* out, int n) {
  pair_ops(a, b, c, out, n);
}
extern "C" __global__ void bf16x2_ops(const __nv_bfloat162* a, const __nv_bfloat162* b,
                                      const __nv_bfloat162* c, __nv_bfloat162* out, int n) {
  pair_ops(a, b, c, out, n);
}

// Conversions from f32 and s64 to both formats and back (out: 16-bit
// results in h[k * n + i], f32 results in f[k * n + i]).
extern "C" __global__ void conversions(const float* x, const float* y, const long long* v,
                                       unsigned short* h, float* f, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float p = x[i], q = y[i];
  const __half hp = __float2half_rn(p);
  const __nv_bfloat16 bp = __float2bfloat16_rn(p);
  h[0 * n + i] = __half_as_ushort(hp);
  h[1 * n + i] = __half_as_ushort(__float2half_rz(p));
  h[2 * n + i] = __half_as_ushort(__float2half_rd(p));
  h[3 * n + i] = __half_as_ushort(__float2half_ru(p));
  h[4 * n + i] = __bfloat16_as_ushort(bp);
  h[5 * n + i] = __bfloat16_as_ushort(__float2bfloat16_rz(p));
  h[6 * n + i] = __half_as_ushort(__ll2half_rn(v[i]));
  h[7 * n + i] = __bfloat16_as_ushort(__ll2bfloat16_rn(v[i]));
  const __half2 hq = __floats2half2_rn(p, q);
  const __nv_bfloat162 bq = __floats2bfloat162_rn(p, q);
  h[8 * n + i] = __half_as_ushort(__low2half(hq));
  h[9 * n + i] = __half_as_ushort(__high2half(hq));
  h[10 * n + i] = __bfloat16_as_ushort(__low2bfloat16(bq));
  h[11 * n + i] = __bfloat16_as_ushort(__high2bfloat16(bq));
  f[0 * n + i] = __half2float(hp);
  f[1 * n + i] = __bfloat162float(bp);
  f[2 * n + i] = __low2float(hq) + __high2float(hq);
}

// atomicAdd on both formats and both pairs from every thread: 1.0 (and 0.5,
// 2.0 in the upper halves) per thread, exact sums for up to 256 threads.
extern "C" __global__ void atomics(__half* h, __half2* h2, __nv_bfloat16* b, __nv_bfloat162* b2) {
  atomicAdd(h, __float2half(1.0f));
  atomicAdd(h2, __floats2half2_rn(1.0f, 0.5f));
  atomicAdd(b, __float2bfloat16(1.0f));
  atomicAdd(b2, __floats2bfloat162_rn(1.0f, 2.0f));
}
