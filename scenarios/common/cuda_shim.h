// CUDA C without a CUDA toolkit: the ordinary spellings (threadIdx,
// blockIdx, blockDim, gridDim, warpSize, __global__, __shared__, ...) on what
// clang itself ships. The built-in variables come from clang's
// __clang_cuda_builtin_vars.h; the qualifiers, which CUDA's own headers
// define, are clang's attributes; __syncthreads() is a clang builtin. The
// scenario kernels include it, and warptlm.Kernel.from_cuda pre-includes it
// (a copy ships with the Python package), so kernels compile with -nocudainc
// and the generated PTX does not depend on an installed toolkit.
// An include guard rather than #pragma once: the package's copy and this
// file may both be seen by one compilation.
#ifndef WARPTLM_CUDA_SHIM_H
#define WARPTLM_CUDA_SHIM_H

#include <__clang_cuda_builtin_vars.h>

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))

// Thread / CTA coordinates as functions, the spelling the scenario kernels
// use; threadIdx.x and friends read the same special registers.
__device__ static inline unsigned tid_x() { return __nvvm_read_ptx_sreg_tid_x(); }
__device__ static inline unsigned tid_y() { return __nvvm_read_ptx_sreg_tid_y(); }
__device__ static inline unsigned ntid_x() { return __nvvm_read_ptx_sreg_ntid_x(); }
__device__ static inline unsigned ntid_y() { return __nvvm_read_ptx_sreg_ntid_y(); }
__device__ static inline unsigned ctaid_x() { return __nvvm_read_ptx_sreg_ctaid_x(); }
__device__ static inline unsigned ctaid_y() { return __nvvm_read_ptx_sreg_ctaid_y(); }
__device__ static inline unsigned nctaid_x() { return __nvvm_read_ptx_sreg_nctaid_x(); }
__device__ static inline unsigned nctaid_y() { return __nvvm_read_ptx_sreg_nctaid_y(); }

// __syncthreads() is itself a clang builtin for NVPTX (bar.sync 0).

// Atomic add on a generic address; returns the old value.
__device__ static inline int atomic_add(int* p, int v) { return __nvvm_atom_add_gen_i(p, v); }
__device__ static inline unsigned atomic_add(unsigned* p, unsigned v) {
  return (unsigned)__nvvm_atom_add_gen_i((int*)p, (int)v);
}

// The CUDA runtime's atomics most kernels use, on generic addresses.
__device__ static inline int atomicAdd(int* p, int v) { return __nvvm_atom_add_gen_i(p, v); }
__device__ static inline unsigned atomicAdd(unsigned* p, unsigned v) {
  return (unsigned)__nvvm_atom_add_gen_i((int*)p, (int)v);
}
__device__ static inline float atomicAdd(float* p, float v) { return __nvvm_atom_add_gen_f(p, v); }
__device__ static inline int atomicCAS(int* p, int compare, int v) {
  return __nvvm_atom_cas_gen_i(p, compare, v);
}
__device__ static inline unsigned atomicCAS(unsigned* p, unsigned compare, unsigned v) {
  return (unsigned)__nvvm_atom_cas_gen_i((int*)p, (int)compare, (int)v);
}
__device__ static inline int atomicExch(int* p, int v) { return __nvvm_atom_xchg_gen_i(p, v); }
__device__ static inline int atomicMin(int* p, int v) { return __nvvm_atom_min_gen_i(p, v); }
__device__ static inline int atomicMax(int* p, int v) { return __nvvm_atom_max_gen_i(p, v); }

#endif  // WARPTLM_CUDA_SHIM_H
