#include "dram/dram_address_map.h"

#include <stdexcept>
#include <string>

namespace warptlm {

DramAddressMap::DramAddressMap(const DramConfig& config, unsigned line)
    : channels_(config.channels), banks_(config.banks), line_(line), line_shift_(0) {
  if (channels_ == 0) throw std::invalid_argument("dram channels must be at least 1");
  if (banks_ == 0) throw std::invalid_argument("dram banks must be at least 1");
  if (line == 0 || (line & (line - 1)) != 0)
    throw std::invalid_argument("dram line must be a power of two, got " + std::to_string(line));
  if (config.row_size < line || config.row_size % line != 0)
    throw std::invalid_argument("dram row_size must be a multiple of the line (" +
                                std::to_string(line) + " bytes), got " +
                                std::to_string(config.row_size));
  while ((1u << line_shift_) < line) ++line_shift_;
  lines_per_row_ = config.row_size / line;
}

DramAddress DramAddressMap::map(uint64_t addr) const {
  uint64_t line = addr >> line_shift_;
  uint64_t local = line / channels_;
  DramAddress a;
  a.channel = static_cast<unsigned>(line % channels_);
  a.bank = static_cast<unsigned>((local / lines_per_row_) % banks_);
  a.row = local / (lines_per_row_ * banks_);
  return a;
}

}  // namespace warptlm
