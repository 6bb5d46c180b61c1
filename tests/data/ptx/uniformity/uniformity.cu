// Kernels whose conditional branches are CTA-uniform (U) or not (V), for
// tests/frontend/test_uniformity.cc; regenerate the PTX beside it with
//   clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_70 -nocudainc -nocudalib -O3 -S \
//       uniformity.cu -o uniformity.O3.ptx
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define TID __nvvm_read_ptx_sreg_tid_x()
#define CTAID __nvvm_read_ptx_sreg_ctaid_x()
#define NTID __nvvm_read_ptx_sreg_ntid_x()

// A loop bounded by a parameter: every thread runs it as often.
extern "C" __global__ void loop_on_parameter(int* out, int n) {
  for (int i = 0; i < n; ++i) out[i * NTID + TID] = i;
}

// A bounds check on the thread index.
extern "C" __global__ void check_on_tid(int* out, int n) {
  if (TID < n) out[TID] = 1;
}

// The same parameter loop inside the bounds check: the threads that run it
// run it alike.
extern "C" __global__ void loop_inside_check(int* out, int n, int k) {
  if (TID < n) {
    for (int i = 0; i < k; ++i) out[i * NTID + TID] = i;
  }
}

// A loop bounded by the thread index.
extern "C" __global__ void loop_on_tid(int* out) {
  for (unsigned i = 0; i < TID; ++i) out[i * NTID + TID] = i;
}

// What a loop with a per-thread trip count leaves behind differs per thread.
extern "C" __global__ void value_after_varying_loop(int* out, int n) {
  int i = 0;
  while (i < (int)TID) i += n;
  if (i > 100) out[TID] = 1;
}

// A bound loaded from memory.
extern "C" __global__ void loop_on_loaded_bound(int* out, const int* len) {
  for (int i = 0; i < len[0]; ++i) out[i * NTID + TID] = i;
}

// The CTA index is the same for all of a CTA's threads.
extern "C" __global__ void check_on_ctaid(int* out) {
  if (CTAID == 0) out[TID] = 1;
}

// The tree reduction: the stride loop is uniform, the active-thread test not.
extern "C" __global__ void shared_reduction(int* out, const int* in) {
  __shared__ int partial[256];
  partial[TID] = in[CTAID * NTID + TID];
  __syncthreads();
  for (unsigned s = NTID / 2; s > 0; s >>= 1) {
    if (TID < s) partial[TID] += partial[TID + s];
    __syncthreads();
  }
  if (TID == 0) out[CTAID] = partial[0];
}
