// Sobel edge filter (SOBFLT). A 16 x 16 CTA computes a 16 x 16 tile of the
// gradient magnitude |Gx| + |Gy| (clamped to 255) of an 8-bit grey image. It
// first stages the 18 x 18 pixels the tile needs (the tile plus a one-pixel
// apron) in shared memory: 256 threads fetch 324 pixels, so a second round
// keeps only the first 68 threads busy, and apron pixels outside the image are
// zero without a load. Then the threads inside the image filter. Every branch
// depends on thread / CTA indices and the image size: programmatic divergence
// at the image borders, in the partial CTAs on the right and bottom edges and
// in the apron loading.
#include "../common/cuda_shim.h"

// The tile side the shared array is sized for; the CTA must be TILE x TILE.
#define SOBEL_TILE 16
#define SOBEL_APRON (SOBEL_TILE + 2)

// out[y * width + x] = min(|Gx| + |Gy|, 255) for the 3 x 3 Sobel kernels,
// with pixels outside the image taken as 0. Pixels are one per 32-bit word.
extern "C" __global__ void sobel_magnitude(const unsigned* image, unsigned* out, int width,
                                           int height) {
  __shared__ int tile[SOBEL_APRON][SOBEL_APRON];
  int tx = tid_x(), ty = tid_y();
  int x0 = ctaid_x() * SOBEL_TILE - 1, y0 = ctaid_y() * SOBEL_TILE - 1;  // apron's corner
  for (int i = ty * SOBEL_TILE + tx; i < SOBEL_APRON * SOBEL_APRON; i += SOBEL_TILE * SOBEL_TILE) {
    int ax = i % SOBEL_APRON, ay = i / SOBEL_APRON;
    int gx = x0 + ax, gy = y0 + ay;
    int pixel = 0;
    if (gx >= 0 && gx < width && gy >= 0 && gy < height) pixel = image[gy * width + gx];
    tile[ay][ax] = pixel;
  }
  __syncthreads();
  int x = x0 + 1 + tx, y = y0 + 1 + ty;
  if (x >= width || y >= height) return;
  // The 3 x 3 neighbourhood of (x, y) is tile[ty .. ty + 2][tx .. tx + 2].
  int nw = tile[ty][tx], n = tile[ty][tx + 1], ne = tile[ty][tx + 2];
  int w = tile[ty + 1][tx], e = tile[ty + 1][tx + 2];
  int sw = tile[ty + 2][tx], s = tile[ty + 2][tx + 1], se = tile[ty + 2][tx + 2];
  int gx = (ne + 2 * e + se) - (nw + 2 * w + sw);
  int gy = (sw + 2 * s + se) - (nw + 2 * n + ne);
  int magnitude = (gx < 0 ? -gx : gx) + (gy < 0 ? -gy : gy);
  out[y * width + x] = magnitude > 255 ? 255 : magnitude;
}
