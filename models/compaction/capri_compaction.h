// CAPRI (Rhu & Erez, ISCA 2012): thread block compaction only at the
// divergent branches its compaction-adequacy prediction table predicts worth
// it; elsewhere the CTA's warps run on uncompacted (docs/compaction.md).
#pragma once

#include "compaction/capri_predictor.h"
#include "compaction/tbc_compaction.h"

namespace warptlm {

class CapriCompaction : public TbcCompaction {
 public:
  // setup.options: entries and history_bits (option_infos()).
  explicit CapriCompaction(const CompactionSetup& setup);
  static std::vector<OptionInfo> option_infos();
  bool selective() const override { return true; }
  bool compact_paths(Pc pc, const CtaMask& taken, const CtaMask& not_taken,
                     CompactionDecisions& decisions) override;
  bool may_compact(Pc pc) const override { return table_.peek(pc); }
  void learn_bypassed(Pc pc, const CtaMask& taken, const CtaMask& not_taken,
                      CompactionDecisions& decisions) override;

 private:
  CapriPredictor table_;
};

}  // namespace warptlm
