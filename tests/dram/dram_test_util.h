// Shared set-up for the DRAM model tests: a small, hand-checkable DRAM
// configuration and a backing store whose first allocation sits at the global
// heap base, so every address below is that base plus an offset.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "config/platform_config.h"
#include "memory/device_memory.h"

namespace warptlm::dram_test {

// 1 GHz memory clock (1 ns cycles), 64-byte lines, 2 channels x 2 banks,
// 256-byte rows (4 lines), 8 bytes per cycle: a line is 8 data cycles.
// With the allocation base B = 2^32 (line 2^26, so all low bits are zero) the
// address map (dram_address_map.h) gives, for an offset o from B:
//   channel = (o / 64) % 2,  bank = (o / 512) % 2,  row = 2^22 + o / 1024.
// So o = 0, 128, 256, 384 share channel 0, bank 0, one row; o = 1024 is the
// next row of that bank; o = 512 is bank 1; o = 64 is channel 1.
// Isolated access latencies (t_rcd 5, t_cas 3, t_rp 7, 8 data cycles):
//   row hit      t_cas + 8               = 11 cycles
//   closed row   t_rcd + t_cas + 8       = 16 cycles
//   other row    t_rp + t_rcd + t_cas + 8 = 23 cycles
constexpr unsigned kLine = 64;

inline DramConfig small_dram(const std::string& scheduler = "frfcfs") {
  DramConfig c;
  c.channels = 2;
  c.banks = 2;
  c.row_size = 256;
  c.bus_width = 8;
  c.t_rcd = 5;
  c.t_cas = 3;
  c.t_rp = 7;
  c.clock_mhz = 1000.0;
  c.scheduler = scheduler;
  return c;
}

// A 4 KiB allocation at B whose byte i holds i % 251 (a pattern that does not
// repeat at any power-of-two stride).
inline uint64_t fill_store(DeviceMemory& store) {
  uint64_t base = store.allocate(4096, "a");
  std::vector<uint8_t> bytes(4096);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i % 251);
  store.write(base, bytes.data(), bytes.size());
  return base;
}

inline std::vector<uint8_t> pattern(uint64_t offset, size_t n) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>((offset + i) % 251);
  return v;
}

}  // namespace warptlm::dram_test
