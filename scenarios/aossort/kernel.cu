// Sort of an array of structures: each CTA sorts one chunk of ntid records
// (key, id, x, y) by key in shared memory with odd-even transposition sort,
// one record per thread. In phase p the threads whose index has the parity
// of p compare their record with the next one: that ownership test is the
// programmatic branch (half the threads, the same lanes of every warp, so
// lane-aligned), and whether the two records are out of order is the
// data-dependent one, which then moves both whole records. Only adjacent
// records out of order are swapped, so the sort is stable.
#include "../common/cuda_shim.h"

// Most records per chunk; the shared array is sized for it.
#define AOSSORT_MAX_CHUNK 256

struct Record {
  unsigned key;
  unsigned id;
  int x;
  int y;
};

// Sorts recs[ctaid * ntid .. + ntid) by key, stably. ntid phases sort any
// input; the phase count is the run-time block size, so the loop stays a loop.
extern "C" __global__ void aos_transposition_sort(Record* recs) {
  __shared__ Record s[AOSSORT_MAX_CHUNK];
  unsigned i = tid_x();
  unsigned n = ntid_x();
  Record* chunk = recs + ctaid_x() * n;
  s[i] = chunk[i];
  __syncthreads();
  for (unsigned phase = 0; phase < n; ++phase) {
    if ((i & 1) == (phase & 1) && i + 1 < n) {
      Record a = s[i];
      Record b = s[i + 1];
      if (a.key > b.key) {
        s[i] = b;
        s[i + 1] = a;
      }
    }
    __syncthreads();
  }
  chunk[i] = s[i];
}
