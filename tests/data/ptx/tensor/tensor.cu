// Tensor-core kernels for tests/exec/test_tensor_cores.cc and the timing
// tests: the WMMA API on every fragment type nvcc has for sm_80 (f16, bf16,
// tf32, s8/u8, f64), and mma.sync / ldmatrix through inline PTX with the
// fragment layouts of the PTX ISA. Regenerate with
//   nvcc -ptx -arch=sm_80 -O3 tensor.cu -o tensor.sm80.ptx
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

// D = A x B + C over an M x N x K problem, one warp per M x N tile of D
// (blockDim.x = 32 * tiles in x, gridDim.y = tiles in y). A is M x K and B is
// K x N, each row- or column-major as the fragment says; C and D are
// row-major M x N. After the K loop every accumulator element is scaled by
// `scale` (fragment element-wise arithmetic, which is layout independent).
template <class In, class Acc, int TM, int TN, int TK, class ALayout, class BLayout>
__device__ void wmma_gemm(const In* a, const In* b, const Acc* c, Acc* d, int M, int N, int K,
                          Acc scale) {
  const int tile_n = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int tile_m = blockIdx.y;
  if (tile_n * TN >= N || tile_m * TM >= M) return;
  using AT = typename std::conditional<std::is_same<In, float>::value, wmma::precision::tf32, In>::type;
  wmma::fragment<wmma::matrix_a, TM, TN, TK, AT, ALayout> fa;
  wmma::fragment<wmma::matrix_b, TM, TN, TK, AT, BLayout> fb;
  wmma::fragment<wmma::accumulator, TM, TN, TK, Acc> fc;
  const Acc* ctile = c + tile_m * TM * N + tile_n * TN;
  wmma::load_matrix_sync(fc, ctile, N, wmma::mem_row_major);
  const bool arow = std::is_same<ALayout, wmma::row_major>::value;
  const bool brow = std::is_same<BLayout, wmma::row_major>::value;
  for (int k = 0; k < K; k += TK) {
    const In* at = arow ? a + tile_m * TM * K + k : a + k * M + tile_m * TM;
    const In* bt = brow ? b + k * N + tile_n * TN : b + tile_n * TN * K + k;
    wmma::load_matrix_sync(fa, at, arow ? K : M);
    wmma::load_matrix_sync(fb, bt, brow ? N : K);
    wmma::mma_sync(fc, fa, fb, fc);
  }
  for (int i = 0; i < fc.num_elements; i++) fc.x[i] = fc.x[i] * scale;
  wmma::store_matrix_sync(d + tile_m * TM * N + tile_n * TN, fc, N, wmma::mem_row_major);
}

extern "C" {
__global__ void wmma_f16_f32(const half* a, const half* b, const float* c, float* d, int M, int N,
                             int K, float scale) {
  wmma_gemm<half, float, 16, 16, 16, wmma::row_major, wmma::col_major>(a, b, c, d, M, N, K, scale);
}
__global__ void wmma_f16_f16_m32n8(const half* a, const half* b, const half* c, half* d, int M,
                                   int N, int K, half scale) {
  wmma_gemm<half, half, 32, 8, 16, wmma::col_major, wmma::row_major>(a, b, c, d, M, N, K, scale);
}
__global__ void wmma_f16_f32_m8n32(const half* a, const half* b, const float* c, float* d, int M,
                                   int N, int K, float scale) {
  wmma_gemm<half, float, 8, 32, 16, wmma::row_major, wmma::row_major>(a, b, c, d, M, N, K, scale);
}
__global__ void wmma_bf16(const __nv_bfloat16* a, const __nv_bfloat16* b, const float* c, float* d,
                          int M, int N, int K, float scale) {
  wmma_gemm<__nv_bfloat16, float, 16, 16, 16, wmma::col_major, wmma::col_major>(a, b, c, d, M, N,
                                                                                 K, scale);
}
__global__ void wmma_tf32(const float* a, const float* b, const float* c, float* d, int M, int N,
                          int K, float scale) {
  wmma_gemm<float, float, 16, 16, 8, wmma::row_major, wmma::col_major>(a, b, c, d, M, N, K, scale);
}
__global__ void wmma_s8(const signed char* a, const signed char* b, const int* c, int* d, int M,
                        int N, int K, int scale) {
  wmma_gemm<signed char, int, 16, 16, 16, wmma::row_major, wmma::col_major>(a, b, c, d, M, N, K,
                                                                             scale);
}
__global__ void wmma_u8(const unsigned char* a, const unsigned char* b, const int* c, int* d, int M,
                        int N, int K, int scale) {
  wmma_gemm<unsigned char, int, 8, 32, 16, wmma::row_major, wmma::row_major>(a, b, c, d, M, N, K,
                                                                              scale);
}
__global__ void wmma_f64(const double* a, const double* b, const double* c, double* d, int M, int N,
                         int K, double scale) {
  wmma_gemm<double, double, 8, 8, 4, wmma::row_major, wmma::col_major>(a, b, c, d, M, N, K, scale);
}

// One m16n8k16 tile with mma.sync: A (16 x 16, row-major) and B (16 x 8,
// row-major) staged in shared memory and loaded with ldmatrix (.x4 for A,
// .x2.trans for B), D written from the accumulator layout of the PTX ISA:
// d[i] at row lane/4 + 8 (i / 2), column 2 (lane % 4) + i % 2.
__global__ void mma_ldmatrix_f16(const half* a, const half* b, const float* c, float* d) {
  __shared__ __align__(16) half sa[16 * 16];
  __shared__ __align__(16) half sb[16 * 8];
  const int lane = threadIdx.x;
  for (int i = lane; i < 256; i += 32) sa[i] = a[i];
  for (int i = lane; i < 128; i += 32) sb[i] = b[i];
  __syncwarp();
  unsigned a0, a1, a2, a3, b0, b1;
  const unsigned pa = (unsigned)__cvta_generic_to_shared(&sa[(lane % 16) * 16 + (lane / 16) * 8]);
  const unsigned pb = (unsigned)__cvta_generic_to_shared(&sb[(lane % 16) * 8]);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3)
               : "r"(pa));
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
               : "=r"(b0), "=r"(b1)
               : "r"(pb));
  const int g = lane / 4, t = lane % 4;
  float c0 = c[g * 8 + 2 * t], c1 = c[g * 8 + 2 * t + 1];
  float c2 = c[(g + 8) * 8 + 2 * t], c3 = c[(g + 8) * 8 + 2 * t + 1];
  float d0, d1, d2, d3;
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
      "{%8, %9}, {%10, %11, %12, %13};"
      : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "f"(c0), "f"(c1), "f"(c2),
        "f"(c3));
  d[g * 8 + 2 * t] = d0;
  d[g * 8 + 2 * t + 1] = d1;
  d[(g + 8) * 8 + 2 * t] = d2;
  d[(g + 8) * 8 + 2 * t + 1] = d3;
}

// mma.sync shapes with fragments gathered by each thread from global memory
// with the PTX ISA's layouts: A row-major M x K, B row-major K x N, C and D
// row-major M x N.
__global__ void mma_tf32_m16n8k8(const float* a, const float* b, const float* c, float* d) {
  const int lane = threadIdx.x, g = lane / 4, t = lane % 4;
  unsigned a0 = __float_as_uint(a[g * 8 + t]), a1 = __float_as_uint(a[(g + 8) * 8 + t]);
  unsigned a2 = __float_as_uint(a[g * 8 + t + 4]), a3 = __float_as_uint(a[(g + 8) * 8 + t + 4]);
  unsigned b0 = __float_as_uint(b[t * 8 + g]), b1 = __float_as_uint(b[(t + 4) * 8 + g]);
  float c0 = c[g * 8 + 2 * t], c1 = c[g * 8 + 2 * t + 1];
  float c2 = c[(g + 8) * 8 + 2 * t], c3 = c[(g + 8) * 8 + 2 * t + 1];
  float d0, d1, d2, d3;
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
      "{%8, %9}, {%10, %11, %12, %13};"
      : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "f"(c0), "f"(c1), "f"(c2),
        "f"(c3));
  d[g * 8 + 2 * t] = d0;
  d[g * 8 + 2 * t + 1] = d1;
  d[(g + 8) * 8 + 2 * t] = d2;
  d[(g + 8) * 8 + 2 * t + 1] = d3;
}

__device__ unsigned pack4(const signed char* p, int stride) {
  return (unsigned char)p[0] | (unsigned char)p[stride] << 8 | (unsigned char)p[2 * stride] << 16 |
         (unsigned)(unsigned char)p[3 * stride] << 24;
}

__global__ void mma_s8_m16n8k32(const signed char* a, const signed char* b, const int* c, int* d) {
  const int lane = threadIdx.x, g = lane / 4, t = lane % 4;
  unsigned a0 = pack4(a + g * 32 + t * 4, 1), a1 = pack4(a + (g + 8) * 32 + t * 4, 1);
  unsigned a2 = pack4(a + g * 32 + t * 4 + 16, 1), a3 = pack4(a + (g + 8) * 32 + t * 4 + 16, 1);
  unsigned b0 = pack4(b + (t * 4) * 8 + g, 8), b1 = pack4(b + (t * 4 + 16) * 8 + g, 8);
  int c0 = c[g * 8 + 2 * t], c1 = c[g * 8 + 2 * t + 1];
  int c2 = c[(g + 8) * 8 + 2 * t], c3 = c[(g + 8) * 8 + 2 * t + 1];
  int d0, d1, d2, d3;
  asm volatile(
      "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 {%0, %1, %2, %3}, "
      "{%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
      : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "r"(c0), "r"(c1), "r"(c2),
        "r"(c3));
  d[g * 8 + 2 * t] = d0;
  d[g * 8 + 2 * t + 1] = d1;
  d[(g + 8) * 8 + 2 * t] = d2;
  d[(g + 8) * 8 + 2 * t + 1] = d3;
}

__global__ void mma_f64_m8n8k4(const double* a, const double* b, const double* c, double* d) {
  const int lane = threadIdx.x, g = lane / 4, t = lane % 4;
  double a0 = a[g * 4 + t], b0 = b[t * 8 + g];
  double c0 = c[g * 8 + 2 * t], c1 = c[g * 8 + 2 * t + 1];
  double d0, d1;
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%4, %5};"
               : "=d"(d0), "=d"(d1)
               : "d"(a0), "d"(b0), "d"(c0), "d"(c1));
  d[g * 8 + 2 * t] = d0;
  d[g * 8 + 2 * t + 1] = d1;
}

__global__ void mma_bf16_m16n8k8(const __nv_bfloat16* a, const __nv_bfloat16* b, const float* c,
                                 float* d) {
  const int lane = threadIdx.x, g = lane / 4, t = lane % 4;
  auto pk = [](__nv_bfloat16 lo, __nv_bfloat16 hi) {
    return (unsigned)__bfloat16_as_ushort(lo) | (unsigned)__bfloat16_as_ushort(hi) << 16;
  };
  unsigned a0 = pk(a[g * 8 + 2 * t], a[g * 8 + 2 * t + 1]);
  unsigned a1 = pk(a[(g + 8) * 8 + 2 * t], a[(g + 8) * 8 + 2 * t + 1]);
  unsigned b0 = pk(b[(2 * t) * 8 + g], b[(2 * t + 1) * 8 + g]);
  float c0 = c[g * 8 + 2 * t], c1 = c[g * 8 + 2 * t + 1];
  float c2 = c[(g + 8) * 8 + 2 * t], c3 = c[(g + 8) * 8 + 2 * t + 1];
  float d0, d1, d2, d3;
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
      "{%7, %8, %9, %10};"
      : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
      : "r"(a0), "r"(a1), "r"(b0), "f"(c0), "f"(c1), "f"(c2), "f"(c3));
  d[g * 8 + 2 * t] = d0;
  d[g * 8 + 2 * t + 1] = d1;
  d[(g + 8) * 8 + 2 * t] = d2;
  d[(g + 8) * 8 + 2 * t + 1] = d3;
}

// wmma in divergent code: only the even lanes reach it (a LaneError).
__global__ void wmma_divergent(const half* a, float* d) {
  if (threadIdx.x % 2 == 0) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::load_matrix_sync(fa, a, 16);
    d[threadIdx.x] = __half2float(fa.x[0]);
  }
}
}
