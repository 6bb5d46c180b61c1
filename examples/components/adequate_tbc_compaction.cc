// An example compaction unit written outside models/: thread block compaction
// (threads in their home lanes) at exactly the divergent branches where
// compacting the two paths needs fewer warps than they arrive in (by at least
// its option min_saving); elsewhere the static warps. It is CAPRI with a perfect predictor: it
// decides after the branch, knowing its outcome, so in the timing model the CTA's warps synchronise
// at every divergent branch (may_compact() stays true) and never run past one uncompacted.
#include <algorithm>
#include <vector>

#include "example_components.h"

namespace warptlm_example {

using warptlm::CompactionDecisions;
using warptlm::CtaMask;
using warptlm::FormedWarp;
using warptlm::LaneMask;
using warptlm::Pc;

class AdequateTbcCompaction : public warptlm::CompactionUnit {
 public:
  AdequateTbcCompaction(unsigned warp_size, unsigned min_saving)
      : warp_size_(warp_size), min_saving_(min_saving) {}

  // The largest number of active threads sharing one home lane.
  unsigned count_warps(const CtaMask& active) const override {
    unsigned most = 0;
    for (unsigned lane = 0; lane < warp_size_; ++lane) {
      unsigned n = 0;
      for (LaneMask m : active) n += (m >> lane) & 1;
      most = std::max(most, n);
    }
    return most;
  }
  // Per home lane, its k-th active thread (in warp order) joins formed warp k.
  void form_warps(const CtaMask& active, std::vector<FormedWarp>& out) const override {
    out.assign(count_warps(active), FormedWarp{std::vector<int32_t>(warp_size_, -1), 0});
    std::vector<unsigned> next(warp_size_, 0);
    for (size_t w = 0; w < active.size(); ++w)
      for (unsigned lane = 0; lane < warp_size_; ++lane) {
        if (((active[w] >> lane) & 1) == 0) continue;
        FormedWarp& fw = out[next[lane]++];
        fw.lane_thread[lane] = static_cast<int32_t>(w * warp_size_ + lane);
        ++fw.threads;
      }
  }

  bool selective() const override { return true; }
  bool compact_paths(Pc, const CtaMask& taken, const CtaMask& not_taken,
                     CompactionDecisions& decisions) override {
    const unsigned formed = count_warps(taken) + count_warps(not_taken);
    const bool adequate = formed + min_saving_ <= static_warps(taken) + static_warps(not_taken);
    ++decisions.predictions;
    decisions.compactions += adequate;
    return adequate;  // never mispredicted
  }

 private:
  static unsigned static_warps(const CtaMask& mask) {
    return static_cast<unsigned>(
        std::count_if(mask.begin(), mask.end(), [](LaneMask m) { return m != 0; }));
  }

  unsigned warp_size_;
  unsigned min_saving_;
};

std::unique_ptr<warptlm::CompactionUnit> make_adequate_tbc(const warptlm::CompactionSetup& setup) {
  return std::make_unique<AdequateTbcCompaction>(setup.warp_size,
                                                 setup.options.get_unsigned("min_saving"));
}

std::vector<warptlm::OptionInfo> adequate_tbc_options() {
  return {{"min_saving", 1, 64, 1, false,
           "warps compacting a divergent branch's paths must save to be chosen"}};
}

}  // namespace warptlm_example
