// Kernels whose conditional branches have known taints, for the finalizer's
// taint tests (tests/frontend/test_taint_ptx.cc). Each kernel's name says
// what its branches depend on. Regenerate with clang 14:
//   for o in 0 3; do clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_70 -nocudainc \
//     -nocudalib -S -O$o -o taint_kernels_O$o.ptx taint_kernels.cu; done
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))

__device__ __attribute__((noinline)) int scale(int v) { return v * 3 + 1; }

__device__ int global_tid() {
  return __nvvm_read_ptx_sreg_tid_x() + __nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x();
}

// P: the thread index alone.
__global__ void p_on_tid(int* out) {
  int tid = global_tid();
  if (tid < 16) out[tid] = 1;
}

// P: a scalar kernel parameter.
__global__ void p_on_param(int* out, int n) {
  if (n > 3) out[global_tid()] = 1;
}

// D: a value loaded from a data array.
__global__ void d_on_load(int* out, const int* in) {
  int tid = global_tid();
  if (in[tid] > 0) out[tid] = 1;
}

// D: a loop counter compared with a bound loaded from memory.
__global__ void d_loop_loaded_bound(int* out, const int* in) {
  int tid = global_tid();
  int bound = in[0];
  for (int i = 0; i < bound; ++i) out[tid + i] = i;
}

// P: a loop counter compared with a parameter.
__global__ void p_loop_param_bound(int* out, int n) {
  int tid = global_tid();
  for (int i = 0; i < n; ++i) out[tid + i] = i;
}

// D: the value a device function returns when fed a loaded value.
__global__ void d_on_helper_of_load(int* out, const int* in) {
  int tid = global_tid();
  if (scale(in[tid]) > 7) out[tid] = 1;
}

// P: the same device function fed the thread index.
__global__ void p_on_helper_of_tid(int* out) {
  int tid = global_tid();
  if (scale(tid) > 9) out[tid] = 2;
}

__device__ __attribute__((noinline)) void fill(int* a, int n, int v) {
  for (int i = 0; i < n; ++i) a[i] = v + i;
}

__device__ __attribute__((noinline)) void fill_loaded(int* a, int n, const int* in) {
  for (int i = 0; i < n; ++i) a[i] = in[i];
}

// P: a local array that a device function fills from a parameter (its
// address escapes into the call), indexed by the thread.
__global__ void p_local_array(int* out, int n) {
  int a[8];
  fill(a, 8, n);
  int t = global_tid();
  if (a[t & 7] > 3) out[t] = 1;
}

// D: the same with an array filled from memory (the branch inside
// fill_loaded's loop is P: it compares the counter with 8).
__global__ void d_local_array(int* out, const int* in) {
  int a[8];
  fill_loaded(a, 8, in);
  int t = global_tid();
  if (a[t & 7] > 3) out[t] = 1;
}

// Mixed, loop-free, so -O0 and -O3 keep the same conditional branches:
// P, D, P, D, P.
__global__ void mixed(int* out, const int* in, int n) {
  int tid = global_tid();
  if (tid >= n) return;
  int v = in[tid];
  if (v > 0) out[tid] = v;
  if ((tid & 1) == 0) out[tid + n] = scale(tid);
  if (scale(v) > 7) out[tid + 2 * n] = 1;
  if (scale(tid) > 9) out[tid + 3 * n] = 2;
}
