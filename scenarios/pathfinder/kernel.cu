// Pathfinder (dynamic programming over the rows of a cost grid): the cheapest
// cost of reaching column x of row r is wall[r][x] plus the cheapest of the
// three cells above it (x - 1, x, x + 1, clamped to the grid). One launch
// advances `height` rows at once: each CTA loads a strip of ntid columns of
// the previous row into shared memory and shrinks it by one column on each
// side per row (a pyramid), so its ntid - 2 * height middle columns come out
// right with no communication between CTAs; the strips overlap by that ghost
// zone. The IN_RANGE tests (inside the pyramid, inside the grid) are the
// programmatic divergence: fewer threads compute at every row. Choosing the
// cheapest predecessor depends on the data, but it is a MIN of three values,
// which compiles to min / selp rather than to a branch.
#include "../common/cuda_shim.h"

// Most threads per CTA; the shared arrays are sized for it.
#define PATHFINDER_MAX_BLOCK 256
#define IN_RANGE(v, lo, hi) ((v) >= (lo) && (v) <= (hi))
#define MIN(a, b) ((a) <= (b) ? (a) : (b))

// src: the costs of the row above the pyramid (cols values); wall: its
// `height` rows of cell costs (height * cols); dst: the costs after the last
// row. The ghost zone is `height` columns on each side, so ntid > 2 * height.
extern "C" __global__ void pathfinder_pyramid(const int* wall, const int* src, int* dst, int cols,
                                              int height) {
  __shared__ int prev[PATHFINDER_MAX_BLOCK];
  __shared__ int result[PATHFINDER_MAX_BLOCK];
  int tx = (int)tid_x();
  int block = (int)ntid_x();
  int out_cols = block - 2 * height;
  int first = out_cols * (int)ctaid_x() - height;  // grid column of thread 0
  int x = first + tx;
  // The threads whose columns lie inside the grid.
  int valid_lo = first < 0 ? -first : 0;
  int valid_hi = first + block > cols ? cols - 1 - first : block - 1;

  if (IN_RANGE(x, 0, cols - 1)) prev[tx] = src[x];
  __syncthreads();
  for (int r = 0; r < height; ++r) {
    // Row r is computed by the threads still inside the pyramid and the grid.
    bool computes = IN_RANGE(tx, r + 1, block - r - 2) && IN_RANGE(tx, valid_lo, valid_hi);
    if (computes) {
      int west = tx - 1 < valid_lo ? valid_lo : tx - 1;
      int east = tx + 1 > valid_hi ? valid_hi : tx + 1;
      int best = MIN(prev[west], prev[tx]);
      best = MIN(best, prev[east]);
      result[tx] = best + wall[r * cols + x];
    }
    __syncthreads();
    if (r == height - 1) break;
    if (computes) prev[tx] = result[tx];
    __syncthreads();
  }
  // The threads that computed the last row: the pyramid's middle columns.
  if (IN_RANGE(tx, height, block - height - 1) && IN_RANGE(tx, valid_lo, valid_hi))
    dst[x] = result[tx];
}
