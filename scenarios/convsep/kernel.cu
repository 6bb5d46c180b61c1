// Separable convolution, rows pass (CONVSEP). A 64 x 4 CTA filters a 64-pixel
// span of 4 image rows with a 17-tap horizontal filter. Each row's span plus
// an 8-pixel apron on either side is staged in shared memory: every thread
// fetches its own pixel, the first 8 threads of the row also fetch the left
// apron and the last 8 the right apron, and pixels outside the image are zero
// without a load. The halo conditions (`tx < RADIUS`, `tx >= SPAN - RADIUS`,
// and the image-edge tests) depend only on thread / CTA indices and the image
// size: programmatic divergence, aligned to the same lanes in every warp.
#include "../common/cuda_shim.h"

#define CONVSEP_RADIUS 8
#define CONVSEP_TAPS (2 * CONVSEP_RADIUS + 1)
#define CONVSEP_SPAN 64  // ntid_x; the shared tile is sized for it
#define CONVSEP_ROWS 4   // ntid_y

// out[y * width + x] = sum over k in [-R, R] of image[y][x + k] * taps[R - k],
// with pixels outside the image taken as 0 (a convolution: taps reversed).
extern "C" __global__ void convolve_rows(const float* image, const float* taps, float* out,
                                         int width, int height) {
  __shared__ float tile[CONVSEP_ROWS][CONVSEP_SPAN + 2 * CONVSEP_RADIUS];
  __shared__ float kernel[CONVSEP_TAPS];
  int tx = tid_x(), ty = tid_y();
  int x = ctaid_x() * CONVSEP_SPAN + tx, y = ctaid_y() * CONVSEP_ROWS + ty;
  bool row_in = y < height;
  const float* row = image + y * width;
  // The filter, like the constant-memory kernel of the original.
  int t = ty * CONVSEP_SPAN + tx;
  if (t < CONVSEP_TAPS) kernel[t] = taps[t];
  // Centre, then the left and right aprons.
  tile[ty][CONVSEP_RADIUS + tx] = row_in && x < width ? row[x] : 0.0f;
  if (tx < CONVSEP_RADIUS) {
    int ax = x - CONVSEP_RADIUS;
    tile[ty][tx] = row_in && ax >= 0 && ax < width ? row[ax] : 0.0f;
  }
  if (tx >= CONVSEP_SPAN - CONVSEP_RADIUS) {
    int ax = x + CONVSEP_RADIUS;
    tile[ty][2 * CONVSEP_RADIUS + tx] = row_in && ax < width ? row[ax] : 0.0f;
  }
  __syncthreads();
  if (!row_in || x >= width) return;
  float sum = 0.0f;
  for (int k = -CONVSEP_RADIUS; k <= CONVSEP_RADIUS; ++k)
    sum += tile[ty][CONVSEP_RADIUS + tx + k] * kernel[CONVSEP_RADIUS - k];
  out[y * width + x] = sum;
}
