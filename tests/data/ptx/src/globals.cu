// Module-scope variables with initialisers: constant tables (one of them
// two-dimensional), device scalars of several types.
#include "compat.h"

__constant__ float coeffs[4] = {0.5f, 1.0f, 1.5f, 2.0f};
__constant__ int matrix[2][3] = {{1, 2, 3}, {4, 5, 6}};
__device__ int counter = 7;
__device__ short halves[3] = {-1, 2, -3};
__device__ double scale = 2.5;

__global__ void globals(float* out) {
  int t = TID_X;
  out[t] = coeffs[t & 3] * matrix[t & 1][t % 3] + counter + halves[t % 3] + scale;
  if (t == 0) atomicAdd(&counter, 1);
}
