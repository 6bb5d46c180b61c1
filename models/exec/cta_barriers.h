// Barrier bookkeeping of one CTA (bar.sync / barrier.sync with an optional
// thread count), shared by the functional executor and the timing model's SMs
// so both release the same warps at the same arrival.
#pragma once

#include <cstdint>
#include <vector>

#include "exec/warp.h"
#include "exec/warp_issuer.h"

namespace warptlm {

class CtaBarriers {
 public:
  void reset() { arrived_.assign(1, 0); }
  // Warp `w` executed a barrier (outcome o at pc). When the barrier completes,
  // every waiting warp in `warps` is released. Returns whether it completed.
  // Faults (through `issuer`) for a bad barrier id or lanes of one warp at two
  // barriers at once.
  bool arrive(Warp& w, const Outcome& o, Pc pc, std::vector<Warp*>& warps, uint64_t cta_threads,
              const WarpIssuer& issuer, const CtaContext& cta);

  // Every live warp waits at a barrier that cannot complete: throws the
  // barrier-deadlock fault naming them.
  [[noreturn]] static void deadlock(const std::vector<Warp*>& warps, uint64_t cta_threads,
                                    const WarpIssuer& issuer, const CtaContext& cta);

 private:
  std::vector<uint64_t> arrived_ = std::vector<uint64_t>(1, 0);
};

}  // namespace warptlm
