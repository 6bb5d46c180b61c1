// Lets the math kernels compile with clang 14 as well as nvcc. CUDA 13's
// headers are too new for clang 14 (its CUDA wrapper needs the `texture`
// template CUDA 12 removed), so under clang the kernels are built with
// -nocudainc and call libdevice's functions by their __nv_ names; clang links
// libdevice.10.bc from --cuda-path. nvcc maps sinf & co. onto the same
// libdevice functions itself.
#pragma once
#ifdef __NVCC__
#define BLOCK_IDX_X blockIdx.x
#define BLOCK_DIM_X blockDim.x
#define THREAD_IDX_X threadIdx.x
#else
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define BLOCK_IDX_X __nvvm_read_ptx_sreg_ctaid_x()
#define BLOCK_DIM_X __nvvm_read_ptx_sreg_ntid_x()
#define THREAD_IDX_X __nvvm_read_ptx_sreg_tid_x()
extern "C" {
__device__ float __nv_sinf(float);
__device__ float __nv_cosf(float);
__device__ float __nv_expf(float);
__device__ float __nv_logf(float);
__device__ float __nv_powf(float, float);
__device__ float __nv_erff(float);
__device__ float __nv_sqrtf(float);
__device__ double __nv_sin(double);
__device__ double __nv_cos(double);
__device__ double __nv_exp(double);
__device__ double __nv_log(double);
__device__ double __nv_pow(double, double);
__device__ double __nv_erf(double);
__device__ double __nv_sqrt(double);
}
#define sinf __nv_sinf
#define cosf __nv_cosf
#define expf __nv_expf
#define logf __nv_logf
#define powf __nv_powf
#define erff __nv_erff
#define sqrtf __nv_sqrtf
#define sin __nv_sin
#define cos __nv_cos
#define exp __nv_exp
#define log __nv_log
#define pow __nv_pow
#define erf __nv_erf
#define sqrt __nv_sqrt
#endif
