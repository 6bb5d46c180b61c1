#include "sm/regfile/operand_collector.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace warptlm {

OperandCollector::OperandCollector(unsigned banks, unsigned collectors) {
  if (banks == 0) throw std::invalid_argument("banks: the register file needs at least one bank");
  if (collectors == 0)
    throw std::invalid_argument("collectors: the SM needs at least one operand collector");
  bank_free_.assign(banks, 0);
  collector_free_.assign(collectors, 0);
  if ((banks & (banks - 1)) == 0) bank_mask_ = banks - 1;
}

bool OperandCollector::start(uint64_t now, unsigned warp, const uint32_t* regs, unsigned n,
                             uint64_t& ready, unsigned& conflict_cycles) {
  if (now < last_now_)
    throw std::invalid_argument("now: cycle " + std::to_string(now) + " is before cycle " +
                                std::to_string(last_now_) + " of an earlier call");
  if (regs == nullptr && n != 0) throw std::invalid_argument("regs: null with n > 0");
  last_now_ = now;

  unsigned unit = 0;
  while (unit < collector_free_.size() && collector_free_[unit] > now) ++unit;
  if (unit == collector_free_.size()) return false;

  const uint64_t banks = bank_free_.size();
  uint64_t last_read = now;  // without reads the operands are ready at now + 1
  for (unsigned i = 0; i < n; ++i) {
    // A register named twice is read once: n is at most a few dozen.
    if (std::find(regs, regs + i, regs[i]) != regs + i) continue;
    // A mask instead of a division for the usual power-of-two bank count (this
    // runs for every operand of every issue).
    const uint64_t r = uint64_t(regs[i]) + warp;
    uint64_t& bank = bank_free_[bank_mask_ || banks == 1 ? r & bank_mask_ : r % banks];
    const uint64_t cycle = std::max(now, bank);
    bank = cycle + 1;
    last_read = std::max(last_read, cycle);
  }
  ready = last_read + 1;
  conflict_cycles = static_cast<unsigned>(ready - (now + 1));
  collector_free_[unit] = ready;
  return true;
}

uint64_t OperandCollector::next_free_collector() const {
  return *std::min_element(collector_free_.begin(), collector_free_.end());
}

void OperandCollector::reset() {
  std::fill(bank_free_.begin(), bank_free_.end(), 0);
  std::fill(collector_free_.begin(), collector_free_.end(), 0);
  last_now_ = 0;
}

}  // namespace warptlm
