// Multi-level 1D Haar wavelet decomposition in shared memory (DWTHARR). Each
// CTA of T threads transforms its own 2T-sample slice completely: at level 1
// all T threads turn a pair of samples into an average and a difference, and
// at each further level only half as many threads as before, `t < active`,
// work on the averages the previous level left in shared memory. The
// shrinking set of active threads is DWTHARR's programmatic divergence: the
// low thread indices stay busy, so the idle lanes are those of whole warps
// plus a tail of one warp, never compactable.
//
// Unnormalised Haar (x 1/2 rather than x 1/sqrt 2) keeps every value a dyadic
// fraction: with 8-bit samples all the float arithmetic here is exact.
#include "../common/cuda_shim.h"

// Most threads per CTA; the shared array holds one average per thread.
#define DWTHAAR_MAX_BLOCK 256

// For the slice s = signal[c * 2T .. + 2T) of CTA c, out[c * 2T .. + 2T) gets
// the Mallat layout: [0] the overall average, then the detail coefficients
// of the coarsest level first: level l (1 = finest) has 2T >> l coefficients
// stored from offset 2T >> l.
extern "C" __global__ void haar_decompose(const float* signal, float* out) {
  __shared__ float average[DWTHAAR_MAX_BLOCK];
  unsigned t = tid_x(), threads = ntid_x();
  unsigned slice = ctaid_x() * 2 * threads;
  const float* in = signal + slice;
  float* coeffs = out + slice;
  // Level 1, every thread: one pair of samples.
  float a = in[2 * t], b = in[2 * t + 1];
  average[t] = (a + b) * 0.5f;
  coeffs[threads + t] = (a - b) * 0.5f;
  __syncthreads();
  // Coarser levels: `active` pairs of the previous level's averages.
  for (unsigned active = threads / 2; active > 0; active /= 2) {
    float lo = 0.0f, hi = 0.0f;
    if (t < active) {
      lo = average[2 * t];
      hi = average[2 * t + 1];
    }
    // Everyone has read before anyone overwrites.
    __syncthreads();
    if (t < active) {
      average[t] = (lo + hi) * 0.5f;
      coeffs[active + t] = (lo - hi) * 0.5f;
    }
    __syncthreads();
  }
  if (t == 0) coeffs[0] = average[0];
}
