// printf and assert from kernels, as nvcc and clang lower them (vprintf with
// an argument buffer in local memory; __assertfail). Test data for
// tests/exec/test_device_printf.cc; regenerate the PTX beside it with
//   clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_70 -nocudainc -nocudalib -O2 -S \
//       printf.cu -o printf.clang.ptx
//   nvcc -arch=sm_75 -ptx printf.cu -o printf.nvcc.ptx
#ifdef __NVCC__
#include <cassert>
#include <cstdio>
#define TID_X threadIdx.x
#else
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
extern "C" __device__ int printf(const char*, ...);
extern "C" __device__ void __assertfail(const char*, const char*, unsigned, const char*,
                                        unsigned long);
#define assert(e) ((e) ? (void)0 : __assertfail(#e, __FILE__, __LINE__, __func__, 1))
#define TID_X __nvvm_read_ptx_sreg_tid_x()
#endif

__global__ void hello(int* out, int n) {
  int t = TID_X;
  if (t < n)
    printf("thread %d of %d: %.2f %s %c %lld %5.1e|%-4d|%x %%\n", t, n, 1.5 * t, "str", 'a' + t,
           (long long)t * 100000000000LL, 0.001 * t, t, 255 + t);
  out[t] = t;
}

__global__ void check(const int* in, int limit) {
  int t = TID_X;
  printf("checking %d\n", in[t]);
  assert(in[t] < limit);
}
