// Nested divergence three levels deep, with work before, inside and after
// every level (the nested example of the MP-IPDOM write-up, seed 003, and of
// Collange's path-list traversal orders, seed 002). Level 1 splits each warp
// by lane parity (programmatic); levels 2 and 3 test bits of the thread's
// loaded value (data-dependent), so the warp ends up in up to eight paths
// at once. Every block reads a 256-entry table; since those loads cannot be
// speculated, clang keeps every level a real branch rather than selects.
#include "../common/cuda_shim.h"

extern "C" __global__ void nested3(const unsigned* in, const unsigned* table, unsigned* out,
                                   unsigned n) {
  unsigned t = tid_x();
  unsigned i = ctaid_x() * ntid_x() + t;
  if (i >= n) return;
  unsigned v = in[i];
  unsigned r = v * 0x01000193u + i;  // level 0
  if (t & 1) {                       // level 1 (programmatic)
    r += table[r & 255];
    if (v & 0x100) {  // level 2 (data)
      r ^= table[(r >> 8) & 255];
      if (v & 0x200) {  // level 3 (data)
        r = r * 5u + table[(r >> 16) & 255];
      } else {
        r = (r >> 3) ^ table[(r >> 4) & 255];
      }
      r += 0x9E37u;
    } else {
      r -= table[(r >> 12) & 255];
      if (v & 0x400) {  // level 3 (data)
        r = (r << 5) + table[(r >> 20) & 255];
      } else {
        r = r * 0x2545F491u ^ table[(r >> 24) & 255];
      }
      r ^= r >> 9;
    }
    r = r * 3u + 1u;
  } else {
    r ^= table[(r >> 2) & 255];
    if (v & 0x800) {  // level 2 (data)
      r = (r + 0x7F4A7C15u) ^ table[(r >> 10) & 255];
      if (v & 0x1000) {  // level 3 (data)
        r -= table[(r >> 18) & 255];
      } else {
        r ^= table[(r >> 6) & 255] << 1;
      }
      r = (r >> 11) ^ (r << 20);
    } else {
      r += table[(r >> 14) & 255] * 7u;
    }
    r ^= 0x5bd1e995u;
  }
  out[i] = r ^ (r >> 16);  // after every level has reconverged
}
