// Non-inlined device functions: scalar, float and struct parameters, return
// values, a void function taking a pointer, and recursion.
#include "compat.h"

struct Pair {
  int a;
  float b;
};

__device__ __noinline__ int combine(int a, int b, float scale) {
  if (a > b) return a - b;
  return (int)(b * scale) + a;
}

__device__ __noinline__ float weigh(Pair p) { return p.a * p.b; }

__device__ __noinline__ void store_twice(int* p, int v) {
  p[0] = v;
  p[1] = v + 1;
}

__device__ __noinline__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }

__global__ void calls(int* out, float* fout, float scale) {
  int t = TID_X;
  int r = combine(t, 7, scale);
  Pair p;
  p.a = t;
  p.b = scale;
  fout[t] = weigh(p);
  store_twice(out + 2 * t, r + fact(t & 7));
}
