#include "compaction/capri_compaction.h"

namespace warptlm {

CapriCompaction::CapriCompaction(const CompactionSetup& setup)
    : TbcCompaction(setup),
      table_(setup.options.get_unsigned("entries"), setup.options.get_unsigned("history_bits")) {}

std::vector<OptionInfo> CapriCompaction::option_infos() {
  return {
      {"entries", 1, 65536, 32, true,
       "entries of the compaction-adequacy prediction table (direct-mapped by branch PC)"},
      {"history_bits", 1, 4, 2, false,
       "width of each entry's saturating adequacy counter (1: the last outcome)"},
  };
}

bool CapriCompaction::compact_paths(Pc pc, const CtaMask& taken, const CtaMask& not_taken,
                                    CompactionDecisions& decisions) {
  const bool is_adequate = adequate(taken, not_taken);
  const bool predicted = table_.predict(pc);
  table_.update(pc, is_adequate, predicted);
  ++decisions.predictions;
  decisions.compactions += predicted;
  decisions.mispredictions += predicted != is_adequate;
  return predicted;
}

void CapriCompaction::learn_bypassed(Pc pc, const CtaMask& taken, const CtaMask& not_taken,
                                     CompactionDecisions& decisions) {
  // The bypass was a prediction of inadequacy: learnt as a synchronised
  // instance would be.
  const bool is_adequate = adequate(taken, not_taken);
  table_.update(pc, is_adequate, false);
  ++decisions.predictions;
  decisions.mispredictions += is_adequate;
}

}  // namespace warptlm
