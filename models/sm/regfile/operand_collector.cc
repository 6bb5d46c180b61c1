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
  if ((banks & (banks - 1)) == 0) {
    bank_mask_ = banks - 1;
    pow2_banks_ = true;
  }
}

void OperandCollector::bad_start(uint64_t now, const uint32_t* regs, unsigned n) const {
  if (now < last_now_)
    throw std::invalid_argument("now: cycle " + std::to_string(now) + " is before cycle " +
                                std::to_string(last_now_) + " of an earlier call");
  if (regs == nullptr && n != 0) throw std::invalid_argument("regs: null with n > 0");
  throw std::logic_error("bad_start: the arguments are valid");
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
