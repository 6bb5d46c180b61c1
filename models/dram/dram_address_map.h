// The DRAM address map: which channel, bank and row a physical address falls
// in. Lines interleave across channels (consecutive lines go to consecutive
// channels, spreading a streaming warp over all of them); inside a channel,
// consecutive lines fill one row of one bank before moving to the next bank,
// so a stream keeps its row open.
//   line    = addr / line_bytes
//   channel = line % channels
//   local   = line / channels            (the line's index inside its channel)
//   bank    = (local / lines_per_row) % banks
//   row     = local / (lines_per_row * banks)
#pragma once

#include <cstdint>

#include "config/platform_config.h"

namespace warptlm {

struct DramAddress {
  unsigned channel = 0;
  unsigned bank = 0;
  uint64_t row = 0;
};

class DramAddressMap {
 public:
  // Throws std::invalid_argument naming the parameter: channels, banks,
  // line (a power of two) and row_size (a multiple of line) must be non-zero.
  DramAddressMap(const DramConfig& config, unsigned line);

  DramAddress map(uint64_t addr) const;
  unsigned channels() const { return channels_; }
  unsigned banks() const { return banks_; }
  unsigned line() const { return line_; }

 private:
  unsigned channels_;
  unsigned banks_;
  unsigned line_;
  unsigned line_shift_;
  uint64_t lines_per_row_;
};

}  // namespace warptlm
