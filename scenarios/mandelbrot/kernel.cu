// Escape-time Mandelbrot: one thread per pixel iterates z = z^2 + c until
// |z|^2 > 4 or max_iter iterations. The trip count of the loop differs from
// pixel to pixel (loop-trip divergence) yet depends only on thread / CTA ids
// and parameters, so its exit branch is programmatic in the SLP taint sense.
//
// Only float + - * are used, and the PTX is generated with -ffp-contract=off,
// so no mul+add is fused: the host reference evaluates the same operations in
// the same order and gets bit-identical iteration counts.
#include "../common/cuda_shim.h"

// iters[py * width + px] = iterations before escape (max_iter if none) of the
// point c = (x0 + px * step, y0 + py * step).
extern "C" __global__ void mandelbrot_escape(unsigned* iters, unsigned width, unsigned height,
                                             float x0, float y0, float step, unsigned max_iter) {
  unsigned px = ctaid_x() * ntid_x() + tid_x();
  unsigned py = ctaid_y() * ntid_y() + tid_y();
  if (px >= width || py >= height) return;
  float cr = x0 + (float)px * step;
  float ci = y0 + (float)py * step;
  float zr = 0.0f, zi = 0.0f;
  unsigned it = 0;
  while (it < max_iter) {
    float zr2 = zr * zr;
    float zi2 = zi * zi;
    if (zr2 + zi2 > 4.0f) break;
    float next_zr = zr2 - zi2 + cr;
    zi = 2.0f * zr * zi + ci;
    zr = next_zr;
    ++it;
  }
  iters[py * width + px] = it;
}
