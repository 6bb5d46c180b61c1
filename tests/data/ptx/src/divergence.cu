// Divergent if/else, an early return, and loops with break/continue.
#include "compat.h"

__global__ void divergent(int* out, const int* in, int n) {
  int t = CTAID_X * NTID_X + TID_X;
  if (t >= n) return;
  int v = in[t];
  int acc;
  if (v & 1) {
    acc = v * 3 + 1;
  } else {
    acc = v / 2;
  }
  for (int i = 0; i < v; ++i) {
    if (i % 3 == 0) continue;
    if (acc > 1000) break;
    acc += i;
  }
  int steps = 0;
  while (v != 1 && steps < 64) {
    v = (v & 1) ? 3 * v + 1 : v >> 1;
    ++steps;
  }
  switch (t & 3) {
    case 0:
      acc += 10;
      break;
    case 1:
      acc -= 3;
      break;
    case 2:
      acc *= 2;
      break;
    default:
      acc ^= 0x55;
  }
  out[t] = acc + steps;
}
