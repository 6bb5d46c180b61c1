// Function pointers for tests/exec/test_function_pointers.cc: a table of
// device functions in a .global initialiser, a pointer taken in code, and
// calls through them (call with a .callprototype). Regenerate with
//   nvcc -ptx -arch=sm_75 -O3 fnptr.cu -o fnptr.sm75.ptx
typedef int (*binary_op)(int, int);

__device__ __noinline__ int add_op(int a, int b) { return a + b; }
__device__ __noinline__ int mul_op(int a, int b) { return a * b; }
__device__ __noinline__ int max_op(int a, int b) { return a > b ? a : b; }

__device__ binary_op table[3] = {add_op, mul_op, max_op};

extern "C" {

// out[i] = table[which](a[i], b[i]): the same function for the whole grid.
__global__ void apply_table(const int* a, const int* b, int* out, int n, int which) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = table[which](a[i], b[i]);
}

// A pointer taken in code and passed down: fold `op` over in[0..n).
__device__ __noinline__ int fold(binary_op op, const int* in, int n) {
  int acc = in[0];
  for (int k = 1; k < n; ++k) acc = op(acc, in[k]);
  return acc;
}

__global__ void fold_rows(const int* in, int* out, int row, int use_max) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  out[r] = fold(use_max ? max_op : add_op, in + r * row, row);
}

// Each thread picks its own function: a divergent call through a pointer.
__global__ void per_thread(const int* a, const int* b, int* out) {
  const int i = threadIdx.x;
  out[i] = table[i % 3](a[i], b[i]);
}

}  // extern "C"
