// Barrier bookkeeping of one CTA (bar.sync / barrier.sync with an optional
// thread count, bar.arrive, which counts without waiting, and bar.red's
// reductions), shared by the functional executor
// and the timing model's SMs so both release the same warps at the same
// arrival.
#pragma once

#include <cstdint>
#include <vector>

#include "exec/warp.h"
#include "exec/warp_issuer.h"

namespace warptlm {

class CtaBarriers {
 public:
  void reset() {
    arrived_.assign(1, 0);
    pending_.clear();
  }
  // Warp `w` executed a barrier (outcome o at pc). When the barrier completes,
  // every waiting warp in `warps` is released. Returns whether it completed.
  // Faults (through `issuer`) for a bad barrier id or lanes of one warp at two
  // barriers at once.
  bool arrive(Warp& w, const Outcome& o, Pc pc, std::vector<Warp*>& warps, uint64_t cta_threads,
              const WarpIssuer& issuer, const CtaContext& cta);

  // bar.red's result for threads that arrived: `votes` of the `arrived`
  // threads' predicates held. Written into lanes `lanes` of the destination
  // of `red` (the bar.red instruction) in frame `frame` of `w`.
  static void write_reduction(Warp& w, size_t frame, const Instruction& red, LaneMask lanes,
                              uint64_t votes, uint64_t arrived);

  // Every live warp waits at a barrier that cannot complete: throws the
  // barrier-deadlock fault naming them.
  [[noreturn]] static void deadlock(const std::vector<Warp*>& warps, uint64_t cta_threads,
                                    const WarpIssuer& issuer, const CtaContext& cta);

 private:
  // Barrier `id` completed: its count restarts and its waiting warps go on.
  bool release(uint32_t id, std::vector<Warp*>& warps);
  // Lanes of a warp that arrived at a bar.red and wait for its result.
  struct Pending {
    Warp* warp;
    size_t frame;
    Pc pc;
    LaneMask lanes;
  };
  struct Reduction {
    BarrierRed op = BarrierRed::None;  // of the first arrival (bar.sync: None)
    uint64_t votes = 0;
    std::vector<Pending> pending;
  };
  std::vector<uint64_t> arrived_ = std::vector<uint64_t>(1, 0);
  std::vector<Reduction> pending_;  // per barrier id, while threads wait at it
};

}  // namespace warptlm
