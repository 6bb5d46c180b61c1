// CtaMask helpers.
#include "compaction/cta_mask.h"

namespace warptlm {

unsigned active_threads(const CtaMask& mask) {
  unsigned n = 0;
  for (LaneMask m : mask) n += static_cast<unsigned>(__builtin_popcountll(m));
  return n;
}

bool any(const CtaMask& mask) {
  for (LaneMask m : mask) {
    if (m != 0) return true;
  }
  return false;
}

}  // namespace warptlm
