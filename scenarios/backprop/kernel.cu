// Back-propagation, forward pass of the input layer into the hidden layer
// (BACKP). A 16 x 16 CTA covers 16 input units (ty) by the 16 hidden units
// (tx): each thread forms the product weight[i][j] * input[i] in a shared
// matrix, then the 16 rows are summed by a tree over ty in which, at step
// `stride`, only the rows with `ty % stride == 0` add in the row stride / 2
// below them. That `ty % stride == 0` test on a 2D CTA is BACKP's
// programmatic divergence: whole rows (tx = 0..15, half a 32-lane warp) drop
// out together, so the active lanes line up across warps.
#include "../common/cuda_shim.h"

// Most rows / columns of the CTA; the shared arrays are sized for it.
#define BACKPROP_MAX_SIDE 16

// partial[ctaid * ntid_x + j] = sum over the CTA's ntid_y input units i of
// weight[i][j] * input[i], with weight row-major (ntid_x hidden units per row).
// The reduction runs to the run-time ntid_y, as in the original kernel, so the
// compiler keeps it a loop and keeps the `%`.
extern "C" __global__ void layer_forward(const float* input, const float* weight, float* partial) {
  __shared__ float in_node[BACKPROP_MAX_SIDE];
  __shared__ float product[BACKPROP_MAX_SIDE][BACKPROP_MAX_SIDE];
  unsigned tx = tid_x(), ty = tid_y();
  unsigned hidden = ntid_x(), rows = ntid_y();
  unsigned row = ctaid_x() * rows + ty;  // the input unit of this thread's row
  // One thread per row fetches the input unit the whole row multiplies by.
  if (tx == 0) in_node[ty] = input[row];
  __syncthreads();
  product[ty][tx] = weight[row * hidden + tx] * in_node[ty];
  __syncthreads();
  for (unsigned stride = 2; stride <= rows; stride *= 2) {
    if (ty % stride == 0) product[ty][tx] += product[ty + stride / 2][tx];
    __syncthreads();
  }
  // Row 0 now holds the CTA's sums; its threads store one per hidden unit.
  if (ty == 0) partial[ctaid_x() * hidden + tx] = product[0][tx];
}
