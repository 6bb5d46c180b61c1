// Thin __global__ wrappers around CUB's block- and warp-level primitives:
// nearly all of the generated PTX is NVIDIA's library code, not ours.
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cuda/functional>

constexpr int kThreads = 128;
constexpr int kItems = 4;  // items per thread for scan and sort

// out[blockIdx.x] = sum of the block's kThreads inputs.
extern "C" __global__ void cub_block_reduce(const int* in, int* out) {
  using Reduce = cub::BlockReduce<int, kThreads>;
  __shared__ typename Reduce::TempStorage temp;
  const int v = in[blockIdx.x * kThreads + threadIdx.x];
  const int sum = Reduce(temp).Sum(v);
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

// Exclusive prefix sum over the block's kThreads * kItems inputs (blocked
// arrangement); the block total goes to totals[blockIdx.x].
extern "C" __global__ void cub_block_scan(const int* in, int* out, int* totals) {
  using Scan = cub::BlockScan<int, kThreads>;
  __shared__ typename Scan::TempStorage temp;
  const int base = (blockIdx.x * kThreads + threadIdx.x) * kItems;
  int items[kItems];
  for (int i = 0; i < kItems; ++i) items[i] = in[base + i];
  int total;
  Scan(temp).ExclusiveSum(items, items, total);
  for (int i = 0; i < kItems; ++i) out[base + i] = items[i];
  if (threadIdx.x == 0) totals[blockIdx.x] = total;
}

// Sorts the block's kThreads * kItems unsigned keys ascending (blocked
// arrangement in and out).
extern "C" __global__ void cub_block_radix_sort(const unsigned* in, unsigned* out) {
  using Sort = cub::BlockRadixSort<unsigned, kThreads, kItems>;
  __shared__ typename Sort::TempStorage temp;
  const int base = (blockIdx.x * kThreads + threadIdx.x) * kItems;
  unsigned keys[kItems];
  for (int i = 0; i < kItems; ++i) keys[i] = in[base + i];
  Sort(temp).Sort(keys);
  for (int i = 0; i < kItems; ++i) out[base + i] = keys[i];
}

// out[w] = sum over the 32 lanes of warp w; max_out[w] = their maximum.
extern "C" __global__ void cub_warp_reduce(const int* in, int* out, int* max_out) {
  using Reduce = cub::WarpReduce<int>;
  __shared__ typename Reduce::TempStorage temp[kThreads / 32];
  const int tid = blockIdx.x * kThreads + threadIdx.x;
  const int warp = threadIdx.x / 32;
  const int v = in[tid];
  const int sum = Reduce(temp[warp]).Sum(v);
  __syncwarp();
  const int mx = Reduce(temp[warp]).Reduce(v, cuda::maximum<>{});
  if (threadIdx.x % 32 == 0) {
    out[tid / 32] = sum;
    max_out[tid / 32] = mx;
  }
}
