// Cooperative-groups grid synchronisation for tests/exec/test_cooperative.cc
// and the timing tests: kernels that are only correct when every CTA of the
// grid is resident and grid.sync() is a barrier for all of them. Regenerate
// with
//   nvcc -ptx -arch=sm_75 -O3 coop.cu -o coop.sm75.ptx
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

extern "C" {

// Every thread adds its element to *total; after grid.sync() thread 0 of
// each CTA copies the total it sees to seen[blockIdx.x]: all equal the
// full sum only if no CTA passed the barrier early.
__global__ void grid_total(const int* in, int n, int* total, int* seen) {
  cg::grid_group grid = cg::this_grid();
  const unsigned long long i = grid.thread_rank();
  if (i < n) atomicAdd(total, in[i]);
  grid.sync();
  if (threadIdx.x == 0) seen[blockIdx.x] = *total;
}

// `steps` rounds of x[i] <- x[i - 1] + x[i + 1] (zero outside) over a
// grid-wide array, ping-ponging between x and y with a grid.sync() after
// each round: one thread per element.
__global__ void grid_stencil(int* x, int* y, int n, int steps) {
  cg::grid_group grid = cg::this_grid();
  const int i = (int)grid.thread_rank();
  for (int s = 0; s < steps; ++s) {
    const int* from = (s % 2 == 0) ? x : y;
    int* to = (s % 2 == 0) ? y : x;
    if (i < n) to[i] = (i > 0 ? from[i - 1] : 0) + (i + 1 < n ? from[i + 1] : 0);
    grid.sync();
  }
}
}
