// Stores that come back to lines the L2 is writing back: thread t stores
// rounds values in turn to out[(t % 32) * k + t / 32], so each warp's store
// touches 32 lines and every line is written by many warps, one after
// another. On a small L2 over one DRAM channel, dirty lines are written back
// while the DRAM queue is full, and later stores land in them meanwhile.
// Test data for tests/timing/test_timing_in_flight_writes.cc; regenerate with
//   clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_70 -nocudainc -nocudalib -O2 -S \
//       scatter.cu -o scatter.clang.ptx
#define __global__ __attribute__((global))

extern "C" __global__ void scatter(volatile unsigned* out, unsigned k, unsigned rounds) {
  unsigned t = __nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x() +
               __nvvm_read_ptx_sreg_tid_x();
  unsigned idx = (t % 32) * k + t / 32;
  for (unsigned r = 0; r < rounds; ++r) out[idx] = t * rounds + r;
}
