// 3D finite difference: an 8th-order (radius 4) star stencil over the
// interior of a padded nx x ny x nz volume. A 16 x 16 CTA holds one z-slice of
// its tile plus a 4-point halo on each side in shared memory and marches
// along z, keeping the 4 points in front of and behind its own in registers.
// The halo of each slice is loaded by the edge threads: rows ty < 4 fetch the
// top and bottom halo rows and columns tx < 4 the left and right halo
// columns; those tests are the programmatic divergence of 3DFD (tx < 4 takes
// 4 of every 16 lanes, the same lanes on every slice).
//
// Integer arithmetic: the coefficients are the standard 8th-order
// second-derivative weights times 5040 (3 c0 for the three axes), so every
// result is exact.
//
// The tile is volatile: clang 14 otherwise treats __syncthreads() as not
// touching the (non-escaping, uninitialised) shared array and forwards a
// thread's own halo store to a later read of the same element, which after
// the barrier holds a value another thread stored (the compiled kernel then
// reads garbage for the threads that skipped the halo load).
#include "../common/cuda_shim.h"

#define FD_RADIUS 4
#define FD_TILE 16  // the CTA is FD_TILE x FD_TILE threads

// in: the padded volume, (nz + 8) planes of (ny + 8) rows of (nx + 8) values;
// out: the interior, nz planes of ny rows of nx values. nx and ny are
// multiples of FD_TILE.
extern "C" __global__ void fd3d_stencil(const int* in, int* out, int nx, int ny, int nz) {
  __shared__ volatile int tile[FD_TILE + 2 * FD_RADIUS][FD_TILE + 2 * FD_RADIUS];
  const int c0 = -43050, c1 = 8064, c2 = -1008, c3 = 128, c4 = -9;
  int tx = (int)tid_x(), ty = (int)tid_y();
  int x = (int)ctaid_x() * FD_TILE + tx;
  int y = (int)ctaid_y() * FD_TILE + ty;
  int pitch = nx + 2 * FD_RADIUS;
  int slice = pitch * (ny + 2 * FD_RADIUS);
  // This thread's column in padded plane 0; plane p is p * slice further.
  int col = (y + FD_RADIUS) * pitch + x + FD_RADIUS;
  int sx = tx + FD_RADIUS, sy = ty + FD_RADIUS;

  // behind[r]: plane z - 1 - r; infront[r]: plane z + 1 + r (interior z).
  int behind[FD_RADIUS], infront[FD_RADIUS];
  for (int r = 0; r < FD_RADIUS; ++r) {
    behind[r] = in[col + (FD_RADIUS - 1 - r) * slice];
    infront[r] = in[col + (FD_RADIUS + 1 + r) * slice];
  }
  int current = in[col + FD_RADIUS * slice];

  for (int z = 0; z < nz; ++z) {
    if (z > 0) {
      for (int r = FD_RADIUS - 1; r > 0; --r) behind[r] = behind[r - 1];
      behind[0] = current;
      current = infront[0];
      for (int r = 0; r < FD_RADIUS - 1; ++r) infront[r] = infront[r + 1];
      infront[FD_RADIUS - 1] = in[col + (z + 2 * FD_RADIUS) * slice];
    }
    int here = col + (z + FD_RADIUS) * slice;
    __syncthreads();  // everyone is done reading the previous slice's tile
    if (ty < FD_RADIUS) {
      tile[ty][sx] = in[here - FD_RADIUS * pitch];
      tile[sy + FD_TILE][sx] = in[here + FD_TILE * pitch];
    }
    if (tx < FD_RADIUS) {
      tile[sy][tx] = in[here - FD_RADIUS];
      tile[sy][sx + FD_TILE] = in[here + FD_TILE];
    }
    tile[sy][sx] = current;
    __syncthreads();
    int v = c0 * current;
    v += c1 * (behind[0] + infront[0] + tile[sy - 1][sx] + tile[sy + 1][sx] + tile[sy][sx - 1] +
               tile[sy][sx + 1]);
    v += c2 * (behind[1] + infront[1] + tile[sy - 2][sx] + tile[sy + 2][sx] + tile[sy][sx - 2] +
               tile[sy][sx + 2]);
    v += c3 * (behind[2] + infront[2] + tile[sy - 3][sx] + tile[sy + 3][sx] + tile[sy][sx - 3] +
               tile[sy][sx + 3]);
    v += c4 * (behind[3] + infront[3] + tile[sy - 4][sx] + tile[sy + 4][sx] + tile[sy][sx - 4] +
               tile[sy][sx + 4]);
    out[(z * ny + y) * nx + x] = v;
  }
}
