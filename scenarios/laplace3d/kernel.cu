// One Jacobi iteration of the 3D Laplace equation on an nx x ny x nz grid: a
// 2D CTA of threads covers a tile of (x, y) columns and every thread marches
// along z. Points on the faces of the grid keep their value (Dirichlet
// boundary); an interior point becomes the mean of its six neighbours. The
// face test is the programmatic divergence of LPS: the threads of x == 0 and
// x == nx - 1 are the same lanes at every z, the rows y == 0 and y == ny - 1
// whole warps, and the planes z == 0 and z == nz - 1 all threads at once.
// Threads past the grid's x / y edge return at once (edge CTAs).
//
// Float: five additions and one multiplication per point, nothing that could
// be fused into an fma, so the host reference can repeat them exactly.
#include "../common/cuda_shim.h"

extern "C" __global__ void laplace3d_jacobi(const float* u1, float* u2, int nx, int ny, int nz) {
  int i = (int)(tid_x() + ctaid_x() * ntid_x());
  int j = (int)(tid_y() + ctaid_y() * ntid_y());
  if (i >= nx || j >= ny) return;
  const float sixth = 1.0f / 6.0f;
  int plane = nx * ny;
  int ind = i + j * nx;
  for (int k = 0; k < nz; ++k, ind += plane) {
    float v;
    if (i == 0 || i == nx - 1 || j == 0 || j == ny - 1 || k == 0 || k == nz - 1) {
      v = u1[ind];
    } else {
      v = (u1[ind - 1] + u1[ind + 1] + u1[ind - nx] + u1[ind + nx] + u1[ind - plane] +
           u1[ind + plane]) *
          sixth;
    }
    u2[ind] = v;
  }
}
