#include "compaction/capri_predictor.h"

#include <stdexcept>
#include <string>

namespace warptlm {

CapriPredictor::CapriPredictor(unsigned entries, unsigned history_bits)
    : history_bits_(history_bits) {
  if (entries == 0 || entries > 65536 || (entries & (entries - 1)) != 0)
    throw std::invalid_argument("capri.entries: must be a power of two from 1 to 65536, got " +
                                std::to_string(entries));
  if (history_bits < 1 || history_bits > 4)
    throw std::invalid_argument("capri.history_bits: must be 1 to 4, got " +
                                std::to_string(history_bits));
  table_.assign(entries, Entry{});
  max_ = static_cast<uint8_t>((1u << history_bits) - 1);
  threshold_ = static_cast<uint8_t>(1u << (history_bits - 1));
}

bool CapriPredictor::predict(Pc pc) {
  ++counters_.lookups;
  const Entry& e = slot(pc);
  bool adequate = true;
  if (e.tag != pc)
    ++counters_.misses;
  else
    adequate = e.counter >= threshold_;
  if (adequate) ++counters_.predicted_compact;
  return adequate;
}

bool CapriPredictor::peek(Pc pc) const {
  const Entry& e = table_[(pc / kInstrBytes) & (table_.size() - 1)];
  return e.tag != pc || e.counter >= threshold_;
}

void CapriPredictor::update(Pc pc, bool adequate, bool predicted) {
  ++counters_.updates;
  if (adequate != predicted) ++counters_.mispredictions;
  Entry& e = slot(pc);
  if (e.tag != pc) {
    // A new (or displacing) entry starts weakly on the side it saw.
    e.tag = pc;
    e.counter = static_cast<uint8_t>(adequate ? threshold_ : threshold_ - 1);
    return;
  }
  if (adequate && e.counter < max_) ++e.counter;
  if (!adequate && e.counter > 0) --e.counter;
}

}  // namespace warptlm
