// Atomic compare-and-swap and exchange on generic addresses, and a device-wide
// memory fence, on clang's NVPTX builtins (atomicCAS / atomicExch /
// __threadfence need the CUDA headers). Complements atomic_add in
// cuda_shim.h, which must be included first.
#pragma once

// Compare-and-swap: stores `desired` if *p == compare; returns the old value
// either way (atom.cas.b32).
__device__ static inline int atomic_cas(int* p, int compare, int desired) {
  return __nvvm_atom_cas_gen_i(p, compare, desired);
}
__device__ static inline unsigned atomic_cas(unsigned* p, unsigned compare, unsigned desired) {
  return (unsigned)__nvvm_atom_cas_gen_i((int*)p, (int)compare, (int)desired);
}

// Exchange: stores v, returns the old value (atom.exch.b32).
__device__ static inline int atomic_exch(int* p, int v) { return __nvvm_atom_xchg_gen_i(p, v); }
__device__ static inline unsigned atomic_exch(unsigned* p, unsigned v) {
  return (unsigned)__nvvm_atom_xchg_gen_i((int*)p, (int)v);
}

// __threadfence(): orders this thread's memory accesses device-wide
// (membar.gl).
__device__ static inline void thread_fence() { __nvvm_membar_gl(); }
