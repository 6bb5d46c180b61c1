// The Multi-Path IPDOM worked example (ElTantawy et al., HPCA 2014, as written
// up in seed 003): one if/else whose sides are very unequal, then a common
// tail. The short side does one update of the thread's output word; the long
// side does four dependent read-modify-write updates of it; after they
// reconverge every thread does one more. A single-path stack runs the two
// sides one after the other; multi-path schemes can interleave them.
//
// The seed's kernel branches on `threadIdx.x < 8` in a 32-thread block, so a
// quarter of a 32-lane warp takes the short side. Here the test is
// `tid % 8 < 2`: a quarter of every group of 8 threads, so every warp splits
// 1:3 at any warp size of 8 or more (the seed's test would not diverge at all
// with 8-lane warps). The output pointer is volatile so that, as in the
// seed's unoptimised build, each update is a real load and store that depends
// on the previous one, instead of being folded into a single add.
#include "../common/cuda_shim.h"

extern "C" __global__ void mpipdom_example(const int* in, volatile int* out, unsigned n) {
  unsigned t = tid_x();
  unsigned i = ctaid_x() * ntid_x() + t;
  if (i >= n) return;
  if (t % 8 < 2) {
    out[i] = in[i] + 50000;
  } else {
    out[i] = in[i] + 300;
    out[i] = out[i] + 300;
    out[i] = out[i] + 300;
    out[i] = out[i] + 300;
  }
  out[i] = out[i] + 7;
}
