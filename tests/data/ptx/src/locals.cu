// A local array and an array of structs indexed by data, so the code keeps
// them in the local depot (at -O0 everything lives there).
#include "compat.h"

struct Particle {
  float x, y, z;
  int id;
};

__device__ __noinline__ float energy(const Particle* p, int n) {
  float e = 0.0f;
  for (int i = 0; i < n; ++i) e += p[i].x * p[i].x + p[i].y * p[i].z + p[i].id;
  return e;
}

__global__ void locals(float* out, const int* idx) {
  int t = TID_X;
  int table[16];
  for (int i = 0; i < 16; ++i) table[i] = i * t;
  Particle ps[4];
  for (int i = 0; i < 4; ++i) {
    ps[i].x = t + i;
    ps[i].y = ps[i].x * 2.0f;
    ps[i].z = -ps[i].y;
    ps[i].id = i;
  }
  int k = idx[t] & 15;
  out[t] = table[k] + ps[k & 3].z + energy(ps, 4);
}
