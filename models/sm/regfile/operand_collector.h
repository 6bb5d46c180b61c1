// The banked register file of an SM behind its operand-collector units. An
// issued instruction takes a collector unit, which reads the distinct source
// registers from the banks; a bank serves one read per cycle, so registers
// that map to one bank (bank = (reg + warp) % banks) read one after another
// and delay the dispatch. Cycle bookkeeping only: no register values.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace warptlm {

class OperandCollector {  // per SM
 public:
  // Throws std::invalid_argument naming `banks` or `collectors` when 0.
  OperandCollector(unsigned banks, unsigned collectors);

  // An instruction of warp slot `warp` wants its source registers read at cycle `now`. Returns
  // false when no collector unit is free at `now`. Otherwise books one read per distinct source
  // register on bank (reg + warp) % banks, each bank serving one read per cycle (earliest free
  // cycle >= now), and sets `ready` to the cycle after the last read (so >= now + 1; == now + 1
  // without conflicts) and `conflict_cycles` to ready - (now + 1). The collector unit stays busy
  // until `ready`. `now` must not go back in time between calls (std::invalid_argument naming
  // `now`; reset() starts over); `regs` may be null only when n == 0.
  // Inline: the SM asks on every issue, and the call cost about as much as the work.
  bool start(uint64_t now, unsigned warp, const uint32_t* regs, unsigned n, uint64_t& ready,
             unsigned& conflict_cycles) {
    if (now < last_now_ || (regs == nullptr && n != 0)) bad_start(now, regs, n);
    last_now_ = now;

    uint64_t* const units = collector_free_.data();
    const size_t n_units = collector_free_.size();
    size_t unit = 0;
    while (unit < n_units && units[unit] > now) ++unit;
    if (unit == n_units) return false;

    uint64_t* const banks = bank_free_.data();
    const uint64_t n_banks = bank_free_.size();
    uint64_t last_read = now;  // without reads the operands are ready at now + 1
    for (unsigned i = 0; i < n; ++i) {
      // A register named twice is read once: n is at most a few dozen.
      if (std::find(regs, regs + i, regs[i]) != regs + i) continue;
      // A mask instead of a division for the usual power-of-two bank count.
      const uint64_t r = uint64_t(regs[i]) + warp;
      uint64_t& bank = banks[pow2_banks_ ? r & bank_mask_ : r % n_banks];
      const uint64_t cycle = std::max(now, bank);
      bank = cycle + 1;
      last_read = std::max(last_read, cycle);
    }
    ready = last_read + 1;
    conflict_cycles = static_cast<unsigned>(ready - (now + 1));
    units[unit] = ready;
    return true;
  }
  // Earliest cycle a collector unit is free (for sleeping).
  uint64_t next_free_collector() const;
  // Whether start() at `now` finds a free collector unit (it then succeeds).
  bool collector_free(uint64_t now) const {
    for (uint64_t t : collector_free_)
      if (t <= now) return true;
    return false;
  }
  // Forgets every booking (all banks and units free from cycle 0).
  void reset();

  unsigned banks() const { return static_cast<unsigned>(bank_free_.size()); }
  unsigned collectors() const { return static_cast<unsigned>(collector_free_.size()); }

 private:
  // Per bank: the first cycle after its last booked read. Because `now` never
  // goes back, the earliest free cycle >= now is max(now, this).
  // The std::invalid_argument of a start() with `now` gone back or null `regs`.
  [[noreturn]] void bad_start(uint64_t now, const uint32_t* regs, unsigned n) const;

  std::vector<uint64_t> bank_free_;
  uint64_t bank_mask_ = 0;   // banks - 1 when the bank count is a power of two (else 0)
  bool pow2_banks_ = false;  // the bank count is a power of two (1 included)
  std::vector<uint64_t> collector_free_;  // per unit: the cycle it is free again
  uint64_t last_now_ = 0;
};

}  // namespace warptlm
