// Asynchronous copies and memory barriers for tests/exec/test_async_copy.cc
// and the timing tests: cp.async through the pipeline primitives and
// cuda::pipeline, mbarrier through cuda::barrier, cvt.rna.tf32.f32 and
// fence.proxy.async. Regenerate with
//   nvcc -ptx -arch=sm_80 -O3 async.cu -o async.sm80.ptx
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_pipeline.h>

extern "C" {

// Each CTA stages its tile of `in` (blockDim.x floats per stage) into
// shared memory with cp.async, `stages` tiles in flight, and writes each
// element times 2 plus its right neighbour in the tile: correct only if
// every wait_group really waited for the tile it reads.
__global__ void staged_copy(const float* in, float* out, int tiles) {
  constexpr int kStages = 3;
  __shared__ float buf[kStages][256];
  const int t = threadIdx.x, n = blockDim.x;
  const float* base = in + (size_t)blockIdx.x * tiles * n;
  float* obase = out + (size_t)blockIdx.x * tiles * n;
  for (int s = 0; s < kStages - 1 && s < tiles; ++s) {
    __pipeline_memcpy_async(&buf[s][t], &base[s * n + t], sizeof(float));
    __pipeline_commit();
  }
  for (int k = 0; k < tiles; ++k) {
    const int next = k + kStages - 1;
    if (next < tiles) __pipeline_memcpy_async(&buf[next % kStages][t], &base[next * n + t], sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(kStages - 1);
    __syncthreads();
    const float* tile = buf[k % kStages];
    obase[k * n + t] = 2.0f * tile[t] + tile[(t + 1) % n];
    __syncthreads();
  }
}

// 16-byte copies with a source size: cuda::memcpy_async of float4 through a
// per-thread cuda::pipeline (cp.async.cg ... 16, 16), then a zero-filled
// tail (src-size < 16) written with the primitive's zfill form.
__global__ void copy16_zfill(const float4* in, float4* out, int valid_bytes) {
  __shared__ float4 s[128];
  const int t = threadIdx.x;
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(&s[t], &in[t], cuda::aligned_size_t<16>(sizeof(float4)), pipe);
  pipe.producer_commit();
  cuda::pipeline_consumer_wait_prior<0>(pipe);
  __syncthreads();
  out[t] = s[(t + 1) % blockDim.x];
  __syncthreads();
  __pipeline_memcpy_async(&s[t], &in[t], 16, 16 - valid_bytes);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  out[blockDim.x + t] = s[t];
}

// A block-wide reduction with cuda::barrier (mbarrier.init/arrive/
// test_wait): each round, threads below `half` add the partner's value after
// everyone has arrived, phase after phase. sums[blockIdx.x] gets the total.
__global__ void barrier_reduce(const int* in, int* sums) {
  __shared__ int v[256];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  const int t = threadIdx.x;
  if (t == 0) init(&bar, blockDim.x);
  __syncthreads();
  v[t] = in[blockIdx.x * blockDim.x + t];
  bar.arrive_and_wait();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    int mine = 0;
    if (t < half) mine = v[t] + v[t + half];
    bar.arrive_and_wait();
    if (t < half) v[t] = mine;
    bar.arrive_and_wait();
  }
  if (t == 0) sums[blockIdx.x] = v[0];
}

// cuda::memcpy_async tracked by a cuda::barrier (cp.async +
// cp.async.mbarrier.arrive.noinc): the barrier completes only when the copies
// have landed.
__global__ void barrier_tracked_copy(const int* in, int* out) {
  __shared__ int s[256];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  const int t = threadIdx.x;
  if (t == 0) init(&bar, blockDim.x);
  __syncthreads();
  cuda::memcpy_async(&s[t], &in[blockIdx.x * blockDim.x + t], cuda::aligned_size_t<4>(sizeof(int)), bar);
  bar.arrive_and_wait();
  out[blockIdx.x * blockDim.x + t] = s[blockDim.x - 1 - t] * 3;
}

// f32 -> tf32 with round-to-nearest, ties away (cvt.rna.tf32.f32).
__global__ void to_tf32(const float* in, unsigned* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned r;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(in[i]));
  out[i] = r;
}

}  // extern "C"
