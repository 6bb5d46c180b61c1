// The banked register file of an SM behind its operand-collector units. An
// issued instruction takes a collector unit, which reads the distinct source
// registers from the banks; a bank serves one read per cycle, so registers
// that map to one bank (bank = (reg + warp) % banks) read one after another
// and delay the dispatch. Cycle bookkeeping only: no register values.
#pragma once

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
  bool start(uint64_t now, unsigned warp, const uint32_t* regs, unsigned n, uint64_t& ready,
             unsigned& conflict_cycles);
  // Earliest cycle a collector unit is free (for sleeping).
  uint64_t next_free_collector() const;
  // Forgets every booking (all banks and units free from cycle 0).
  void reset();

  unsigned banks() const { return static_cast<unsigned>(bank_free_.size()); }
  unsigned collectors() const { return static_cast<unsigned>(collector_free_.size()); }

 private:
  // Per bank: the first cycle after its last booked read. Because `now` never
  // goes back, the earliest free cycle >= now is max(now, this).
  std::vector<uint64_t> bank_free_;
  uint64_t bank_mask_ = 0;  // banks - 1 when the bank count is a power of two (else 0)
  std::vector<uint64_t> collector_free_;  // per unit: the cycle it is free again
  uint64_t last_now_ = 0;
};

}  // namespace warptlm
