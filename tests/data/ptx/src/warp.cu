// Warp-level primitives: shuffles, votes, activemask and __syncwarp.
#include "compat.h"

__global__ void warp_ops(int* out, const int* in) {
  int t = TID_X;
  int v = in[t];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  int up = __shfl_up_sync(0xffffffffu, in[t], 1);
  int x = __shfl_xor_sync(0xffffffffu, in[t], 1);
  int b = __shfl_sync(0xffffffffu, in[t], 0);
  unsigned ballot = __ballot_sync(0xffffffffu, in[t] > 0);
  int all = __all_sync(0xffffffffu, in[t] != 0);
  int any = __any_sync(0xffffffffu, in[t] < 0);
  unsigned active = 0;
  if (t & 1) active = __activemask();
  __syncwarp();
  out[t] = v + up + x + b + ballot + all + any + active;
}
