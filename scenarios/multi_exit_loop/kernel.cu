// A loop with several exits to different continuation code, one of the PPC
// paper's unstructured micro-benchmarks (seed 000, Fig. 6). Each thread scans
// its own record, a run of words, accumulating a checksum, and leaves the
// scan loop in one of three ways:
//
//   do {
//     if (k == limit) goto too_long;      // no terminator within the limit
//     w = record[k];
//     if (w == 0) goto terminated;        // end-of-record word
//     sum = mix(sum, w); ++k;
//   } while (w < ESCAPE);                 // an escape word ends the scan too
//   goto escaped;
//   terminated: ...; goto finish;
//   escaped:    ...; goto finish;         // shares its tail with `terminated`
//   too_long:   ...;                      // its own code, straight to the store
//   finish:     ...;
//
// Which exit a thread takes, and after how many words, depends on its record.
// (The escape test sits at the bottom so that clang keeps the latch a
// conditional backward branch.) The exits from the middle of the body make
// the CFG unstructured. Under the IPDOM stack every exit branch reconverges
// only after the loop, at the final store, so threads leaving by `terminated`
// (in any iteration) and by `escaped` run `finish` in separate passes, which
// a scheme that merges paths by PC can share.
#include "../common/cuda_shim.h"

#define MULTI_EXIT_ESCAPE 0xFFFF0000u  // words at or above this are escapes

extern "C" __global__ void multi_exit_loop(const unsigned* records, unsigned stride, unsigned limit,
                                           const unsigned* table, unsigned* out, unsigned n) {
  unsigned i = ctaid_x() * ntid_x() + tid_x();
  if (i >= n) return;
  const unsigned* rec = records + (unsigned long long)i * stride;
  unsigned sum = 0x811C9DC5u, k = 0, w, r;
  do {
    if (k == limit) goto too_long;
    w = rec[k];
    if (w == 0) goto terminated;
    sum = (sum ^ w) * 0x01000193u;
    ++k;
  } while (w < MULTI_EXIT_ESCAPE);
  goto escaped;
terminated:
  // Continuation 1: length and checksum.
  r = sum + (k << 24);
  goto finish;
escaped:
  // Continuation 2: the escape's low bits pick a table entry.
  r = (sum ^ table[w & 255]) + k;
  r ^= r >> 7;
  goto finish;
too_long:
  // Continuation 3: flagged in the top bit, no shared tail.
  out[i] = 0x80000000u | (sum >> 1);
  return;
finish:
  // The tail continuations 1 and 2 share; keeps the top bit clear.
  r = (r ^ (r >> 16)) * 0x45D9F3Bu;
  out[i] = (r ^ (r >> 16)) & 0x7FFFFFFFu;
}
