// CTA and warp synchronisation that CUDA programs use beyond __syncthreads:
// __syncthreads_count/_and/_or (bar.red), __match_any_sync/__match_all_sync
// (match), warpSize (nvcc: WARP_SZ), elect.sync, __nanosleep and
// %globaltimer. Test data for tests/exec/test_warp_sync.cc and
// tests/timing/test_timing_warp_sync.cc; regenerate the PTX beside it with
//   clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_70 -nocudainc -nocudalib -O2 \
//       -Xclang -target-feature -Xclang +ptx64 -S warp_sync.cu -o warp_sync.clang.ptx
//   nvcc -arch=sm_90 -ptx warp_sync.cu -o warp_sync.nvcc.ptx
// (elect.sync needs sm_90: clang 14 does not know it, so its kernel is nvcc's
// only.)
#ifdef __NVCC__
#define TID_X threadIdx.x
#define NTID_X blockDim.x
#define CTAID_X blockIdx.x
#define WARP_SIZE warpSize
#else
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define TID_X __nvvm_read_ptx_sreg_tid_x()
#define NTID_X __nvvm_read_ptx_sreg_ntid_x()
#define CTAID_X __nvvm_read_ptx_sreg_ctaid_x()
// clang folds warpSize to 32; PTX's WARP_SZ is what nvcc emits for it.
__device__ inline int warp_size_value() {
  int w;
  asm("mov.u32 %0, WARP_SZ;" : "=r"(w));
  return w;
}
#define WARP_SIZE warp_size_value()
__device__ inline int __syncthreads_count(int p) { return __nvvm_bar0_popc(p); }
__device__ inline int __syncthreads_and(int p) { return __nvvm_bar0_and(p); }
__device__ inline int __syncthreads_or(int p) { return __nvvm_bar0_or(p); }
__device__ inline unsigned __match_any_sync(unsigned m, unsigned v) {
  return __nvvm_match_any_sync_i32(m, v);
}
__device__ inline unsigned __match_all_sync(unsigned m, unsigned v, int* pred) {
  return __nvvm_match_all_sync_i32p(m, v, pred);
}
__device__ inline void __nanosleep(unsigned ns) { asm volatile("nanosleep.u32 %0;" ::"r"(ns)); }
#endif

__device__ inline unsigned long long globaltimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Per thread: how many of the CTA's values are positive, whether all are,
// whether any exceeds 100; the last two only for threads that pass a
// divergent test first (they still all reach the barriers).
__global__ void barrier_reductions(const int* in, int* out) {
  const int i = CTAID_X * NTID_X + TID_X;
  const int v = in[i];
  const int count = __syncthreads_count(v > 0);
  const int all = __syncthreads_and(v > 0);
  const int any = __syncthreads_or(v > 100);
  out[3 * i] = count;
  out[3 * i + 1] = all;
  out[3 * i + 2] = any;
}

// Per thread: the lanes of its warp holding the same key, and match.all's
// mask and predicate on key / 4.
__global__ void warp_match(const unsigned* keys, unsigned* out) {
  const int i = CTAID_X * NTID_X + TID_X;
  const unsigned k = keys[i];
  int pred = 0;
  out[3 * i] = __match_any_sync(0xffffffffu, k);
  out[3 * i + 1] = __match_all_sync(0xffffffffu, k / 4, &pred);
  out[3 * i + 2] = pred;
}

// Per thread: the warp size the code sees.
__global__ void warp_size(int* out) { out[CTAID_X * NTID_X + TID_X] = WARP_SIZE; }

// Per thread: %globaltimer's advance over a nanosleep of `ns`.
__global__ void sleepy(unsigned long long* out, unsigned ns) {
  const unsigned long long t0 = globaltimer();
  __nanosleep(ns);
  out[CTAID_X * NTID_X + TID_X] = globaltimer() - t0;
}

#ifdef __NVCC__
// Per thread: the lane elect.sync chose, and 1 in that lane; only the odd
// lanes take part.
__global__ void elect_leader(unsigned* out) {
  const int i = CTAID_X * NTID_X + TID_X;
  unsigned leader = ~0u, is_leader = 0;
  if (TID_X % 2 == 1) {
    asm volatile(
        "{ .reg .pred p; elect.sync %0|p, %2; selp.u32 %1, 1, 0, p; }"
        : "=r"(leader), "=r"(is_leader)
        : "r"(__activemask()));
  }
  out[2 * i] = leader;
  out[2 * i + 1] = is_leader;
}
#endif
