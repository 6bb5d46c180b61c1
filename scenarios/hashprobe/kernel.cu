// Open-addressing hash table lookup with linear probing: each thread looks up
// one query key. The probe loop has three exits that lead to different code
// (key found, empty slot reached, probe limit reached), so a thread leaves
// the loop from the middle of its if/else chain: unstructured control flow,
// whose exits can reconverge with each other before the kernel's end. How
// many probes a thread makes and which exit it takes depend on loaded data.
#include "../common/cuda_shim.h"

// Slot value marking an empty slot; keys are never 0.
#define HASHPROBE_EMPTY 0u
// Results that are not a stored value (stored values are below 2^31).
#define HASHPROBE_ABSENT 0x80000000u   // | probes made: the key is not in the table
#define HASHPROBE_GAVE_UP 0xFFFFFFFFu  // the probe limit was reached

// The table has 2^(32 - shift) slots; a key's home slot is the top bits of a
// multiplicative (Fibonacci) hash.
extern "C" __global__ void hash_probe(const unsigned* keys, const unsigned* values, unsigned shift,
                                      const unsigned* queries, unsigned* results, unsigned n,
                                      unsigned max_probes) {
  unsigned i = ctaid_x() * ntid_x() + tid_x();
  if (i >= n) return;
  unsigned query = queries[i];
  unsigned mask = 0xFFFFFFFFu >> shift;
  unsigned slot = (query * 0x9E3779B1u) >> shift;
  unsigned probes = 0;
  while (probes < max_probes) {
    unsigned key = keys[slot];
    ++probes;
    if (key == query) goto found;
    if (key == HASHPROBE_EMPTY) {
      results[i] = HASHPROBE_ABSENT | probes;
      return;
    }
    slot = (slot + 1) & mask;
  }
  results[i] = HASHPROBE_GAVE_UP;
  return;
found:
  results[i] = values[slot];
}
