// The few CUDA spellings the scenario kernels use, defined on clang's NVPTX
// builtins so the kernels compile with -nocudainc (no CUDA headers needed, and
// the generated PTX does not depend on an installed toolkit).
#pragma once

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))

// Thread / CTA coordinates. Functions rather than threadIdx.x-style structs,
// which need the CUDA headers' property machinery.
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
