// Lets the same kernel sources compile with nvcc (real CUDA headers) and with
// clang -nocudainc (no headers): maps the few CUDA names the samples use onto
// clang's NVVM builtins. Test data for the PTX parser; see
// scripts/regen_test_ptx.sh.
#pragma once
#ifdef __NVCC__
#define TID_X threadIdx.x
#define TID_Y threadIdx.y
#define NTID_X blockDim.x
#define CTAID_X blockIdx.x
#define NCTAID_X gridDim.x
#else
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __noinline__ __attribute__((noinline))
#define TID_X __nvvm_read_ptx_sreg_tid_x()
#define TID_Y __nvvm_read_ptx_sreg_tid_y()
#define NTID_X __nvvm_read_ptx_sreg_ntid_x()
#define CTAID_X __nvvm_read_ptx_sreg_ctaid_x()
#define NCTAID_X __nvvm_read_ptx_sreg_nctaid_x()
__device__ inline int atomicAdd(int* p, int v) { return __nvvm_atom_add_gen_i(p, v); }
__device__ inline float atomicAdd(float* p, float v) { return __nvvm_atom_add_gen_f(p, v); }
__device__ inline int atomicMax(int* p, int v) { return __nvvm_atom_max_gen_i(p, v); }
__device__ inline unsigned atomicMin(unsigned* p, unsigned v) {
  return __nvvm_atom_min_gen_ui(p, v);
}
__device__ inline int atomicExch(int* p, int v) { return __nvvm_atom_xchg_gen_i(p, v); }
__device__ inline int atomicCAS(int* p, int c, int v) { return __nvvm_atom_cas_gen_i(p, c, v); }
__device__ inline int atomicOr(int* p, int v) { return __nvvm_atom_or_gen_i(p, v); }
__device__ inline unsigned long long atomicAdd(unsigned long long* p, unsigned long long v) {
  return __nvvm_atom_add_gen_ll((long long*)p, (long long)v);
}
__device__ inline unsigned atomicInc(unsigned* p, unsigned v) {
  return __nvvm_atom_inc_gen_ui(p, v);
}
__device__ inline int __shfl_down_sync(unsigned m, int v, unsigned d) {
  return __nvvm_shfl_sync_down_i32(m, v, d, 0x1f);
}
__device__ inline int __shfl_up_sync(unsigned m, int v, unsigned d) {
  return __nvvm_shfl_sync_up_i32(m, v, d, 0);
}
__device__ inline int __shfl_xor_sync(unsigned m, int v, int l) {
  return __nvvm_shfl_sync_bfly_i32(m, v, l, 0x1f);
}
__device__ inline int __shfl_sync(unsigned m, int v, int l) {
  return __nvvm_shfl_sync_idx_i32(m, v, l, 0x1f);
}
__device__ inline unsigned __ballot_sync(unsigned m, int p) {
  return __nvvm_vote_ballot_sync(m, p);
}
__device__ inline int __all_sync(unsigned m, int p) { return __nvvm_vote_all_sync(m, p); }
__device__ inline int __any_sync(unsigned m, int p) { return __nvvm_vote_any_sync(m, p); }
__device__ inline unsigned __activemask() {
  unsigned m;
  asm volatile("activemask.b32 %0;" : "=r"(m));
  return m;
}
__device__ inline void __syncwarp() { __nvvm_bar_warp_sync(0xffffffff); }
__device__ inline float sqrtf(float x) { return __nvvm_sqrt_rn_f(x); }
__device__ inline float __sinf(float x) { return __nvvm_sin_approx_f(x); }
__device__ inline float __cosf(float x) { return __nvvm_cos_approx_f(x); }
__device__ inline float __expf(float x) { return __nvvm_ex2_approx_f(x * 1.4426950408889634f); }
__device__ inline float __log2f(float x) { return __nvvm_lg2_approx_f(x); }
__device__ inline float fmaf(float a, float b, float c) { return __nvvm_fma_rn_f(a, b, c); }
__device__ inline float rsqrtf(float x) { return __nvvm_rsqrt_approx_f(x); }
__device__ inline float fminf(float a, float b) { return __nvvm_fmin_f(a, b); }
__device__ inline float fmaxf(float a, float b) { return __nvvm_fmax_f(a, b); }
__device__ inline float fabsf(float x) { return __nvvm_fabs_f(x); }
__device__ inline double sqrt(double x) { return __nvvm_sqrt_rn_d(x); }
__device__ inline float __fdividef(float a, float b) { return __nvvm_div_approx_f(a, b); }
__device__ inline int __popc(unsigned x) { return __builtin_popcount(x); }
__device__ inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(x); }
__device__ inline unsigned __brev(unsigned x) { return __builtin_bitreverse32(x); }
__device__ inline int __mul24(int a, int b) { return __nvvm_mul24_i(a, b); }
__device__ inline int __mulhi(int a, int b) { return __nvvm_mulhi_i(a, b); }
__device__ inline unsigned __byte_perm(unsigned a, unsigned b, unsigned s) {
  return __nvvm_prmt(a, b, s);
}
#endif
