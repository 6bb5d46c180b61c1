// Texture and surface objects as CUDA programs use them: tex1Dfetch, tex1D,
// tex2D (point and linear, normalised coordinates, every address mode),
// tex3D, tex2Dgather, surf2Dread/surf2Dwrite with both boundary modes, and
// an image rotation through a normalised, wrapping, linearly filtered
// texture. tests/exec/test_textures.cc runs them against a host reference.
//
// Regenerate the PTX (nvcc 13; the PTX is committed, nvcc is not needed):
//   nvcc -ptx -arch=sm_75 -O3 textures.cu -o textures.nvcc.ptx
#include <cuda_runtime.h>

// out[i] = the texel at integer coordinate i + shift (1D, element type).
__global__ void fetch1d(cudaTextureObject_t t, int* out, int n, int shift) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<int>(t, i + shift);
}

// out[i] = tex1D at coordinate x0 + i * dx.
__global__ void sample1d(cudaTextureObject_t t, float* out, int n, float x0, float dx) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float>(t, x0 + i * dx);
}

// out[y * w + x] = tex2D at (x0 + x * dx, y0 + y * dy): one thread per sample.
__global__ void sample2d(cudaTextureObject_t t, float* out, int w, int h, float x0, float y0,
                         float dx, float dy) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) out[y * w + x] = tex2D<float>(t, x0 + x * dx, y0 + y * dy);
}

// Four channels: a uchar4 texture read as normalised floats.
__global__ void sample2d_rgba(cudaTextureObject_t t, float4* out, int w, int h, float x0,
                              float y0, float dx, float dy) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) out[y * w + x] = tex2D<float4>(t, x0 + x * dx, y0 + y * dy);
}

__global__ void sample3d(cudaTextureObject_t t, float* out, int w, int h, int d, float s) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  int z = blockIdx.z;
  if (x < w) out[(z * h + y) * w + x] = tex3D<float>(t, (x + 0.25f) * s, (y + 0.5f) * s,
                                                     (z + 0.75f) * s);
}

// The green channel of the bilinear footprint around each sample point.
__global__ void gather2d(cudaTextureObject_t t, float4* out, int w, int h, float x0, float y0) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) out[y * w + x] = tex2Dgather<float4>(t, x0 + x, y0 + y, 1);
}

// Rotates an image by `angle` about its centre: normalised coordinates with
// wrap and linear filtering, as image-processing samples do.
__global__ void rotate(cudaTextureObject_t t, float* out, int w, int h, float angle) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float u = (float)x / w - 0.5f, v = (float)y / h - 0.5f;
  float c = cosf(angle), s = sinf(angle);
  float tu = u * c - v * s + 0.5f, tv = v * c + u * s + 0.5f;
  out[y * w + x] = tex2D<float>(t, tu, tv);
}

// Inverts the colour of a uchar4 surface in place, reading a shifted
// neighbour with cudaBoundaryModeZero (0 outside) and writing with Trap;
// every thread reaches the barrier between the reads and the writes.
__global__ void invert_shifted(cudaSurfaceObject_t s, int w, int h, int shift) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  bool inside = x < w && y < h;
  uchar4 v = make_uchar4(0, 0, 0, 0);
  if (inside) v = surf2Dread<uchar4>(s, (x + shift) * 4, y, cudaBoundaryModeZero);
  __syncthreads();
  if (inside) surf2Dwrite(make_uchar4(255 - v.x, 255 - v.y, 255 - v.z, v.w), s, x * 4, y);
}

// One float per element, clamped reads past the right edge.
__global__ void copy_clamped(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int w, int h,
                             int shift) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float v = surf2Dread<float>(src, (x + shift) * 4, y, cudaBoundaryModeClamp);
  surf2Dwrite(v, dst, x * 4, y);
}
