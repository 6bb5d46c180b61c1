// Named platform presets. Every figure either comes from the source named in
// the preset's doc or is marked there as an assumption.
#include <stdexcept>

#include "config/close_names.h"
#include "config/platform_config.h"

namespace warptlm {
namespace {

// The SLP paper's GPGPU-Sim configuration (Rhu & Erez, ISCA 2013, Table 2),
// which the struct's defaults already are. Table 2 gives SMs, threads per SM,
// warp size, SIMD width, registers, shared memory, scheduling policy, L1, L2,
// the FR-FCFS controller and 8 channels; clocks and DRAM timings are GPGPU-Sim's
// GTX480 configuration (700 MHz core, 924 MHz GDDR5, 16 banks, tRCD = tRP =
// CL = 12); latencies, MSHRs, CTA slots and banks are assumptions.
PlatformConfig fermi() { return PlatformConfig{}; }

// Small and quick, for tests: two SMs with few warps, small caches, two
// channels. Any built-in scenario's 256-thread CTA still fits.
PlatformConfig small() {
  PlatformConfig c;
  c.num_sms = 2;
  c.scheduler = "lrr";
  c.sm.threads = 512;
  c.sm.warps = 16;
  c.sm.ctas = 4;
  c.sm.registers = 32768;
  c.sm.shared_memory = 32 * 1024;
  c.sm.schedulers = 2;
  c.sm.register_banks = 8;
  c.sm.collectors = 4;
  c.memory.l1 = CacheConfig{16 * 1024, 4, 64, 16, 20, 1, "write_through", true};
  c.memory.l2 = CacheConfig{128 * 1024, 8, 64, 16, 100, 2, "write_back", true};
  c.memory.dram.channels = 2;
  c.memory.dram.banks = 8;
  c.memory.dram.bus_width = 16;
  return c;
}

// An NVIDIA Tesla V100 (GV100, SXM2), from the Volta architecture
// whitepaper (NVIDIA, 2017): 80 SMs, 2048 threads, 64 warps, 32 CTAs, 65536
// registers and up to 96 KB shared memory per SM, four processing blocks per
// SM (one scheduler each, 16 FP32 lanes: a warp issues over two cycles),
// 128 KB of combined L1/shared memory per SM (32 KB left as L1 with 96 KB of
// shared memory), 6 MB L2, HBM2 at 877 MHz (900 GB/s: 32 channels x 32 bytes
// per clock). Hit latencies (L1 28, L2 193 cycles) are Jia et al.'s
// microbenchmark figures ("Dissecting the NVIDIA Volta GPU Architecture via
// Microbenchmarking", 2018). Associativities, slice count, MSHRs, banks and
// HBM2 timings are not published; the values here are assumptions.
PlatformConfig volta() {
  PlatformConfig c;
  c.simd_width = 16;
  c.num_sms = 80;
  c.scheduler = "gto";
  c.sm.threads = 2048;
  c.sm.warps = 64;
  c.sm.ctas = 32;
  c.sm.registers = 65536;
  c.sm.max_registers_per_thread = 255;
  c.sm.shared_memory = 96 * 1024;
  c.sm.schedulers = 4;
  c.sm.register_banks = 8;
  c.sm.collectors = 16;
  c.sm.clock_mhz = 1530.0;
  c.memory.l1 = CacheConfig{32 * 1024, 4, 128, 256, 28, 1, "write_through", true};
  c.memory.l2 = CacheConfig{6 * 1024 * 1024, 24, 128, 64, 193, 64, "write_back", true};
  c.memory.dram.channels = 32;
  c.memory.dram.banks = 16;
  c.memory.dram.row_size = 1024;
  c.memory.dram.bus_width = 32;
  c.memory.dram.t_cas = 14;
  c.memory.dram.t_rcd = 14;
  c.memory.dram.t_rp = 14;
  c.memory.dram.clock_mhz = 877.0;
  return c;
}

struct Preset {
  PresetInfo info;
  PlatformConfig (*make)();
};

const std::vector<Preset>& presets() {
  static const std::vector<Preset> list = {
      {{"small", "2 SMs, 16 warps each, small caches: quick runs for tests"}, small},
      {{"fermi",
        "the SLP paper's GPGPU-Sim configuration (Rhu & Erez, ISCA 2013, Table 2): 30 SMs, "
        "1024 threads/SM, warp 32, SIMD 32, 16384 registers, 32 KB shared, L1 32KB/8-way/64B, "
        "L2 1MB/64-way/64B, 8 channels FR-FCFS, sticky round-robin"},
       fermi},
      {{"volta",
        "NVIDIA Tesla V100 from the Volta whitepaper: 80 SMs, 2048 threads/SM, 4 schedulers, "
        "SIMD 16, 65536 registers, 96 KB shared, 32 KB L1, 6 MB L2, 32 HBM2 channels; latencies "
        "from Jia et al. 2018"},
       volta},
  };
  return list;
}

}  // namespace

const std::vector<PresetInfo>& preset_infos() {
  static const std::vector<PresetInfo> infos = [] {
    std::vector<PresetInfo> v;
    for (const Preset& p : presets()) v.push_back(p.info);
    return v;
  }();
  return infos;
}

PlatformConfig preset(const std::string& name) {
  std::string known;
  std::vector<std::string> names;
  for (const Preset& p : presets()) {
    if (p.info.name == name) return p.make();
    known += (known.empty() ? "" : ", ") + p.info.name;
    names.push_back(p.info.name);
  }
  throw std::invalid_argument("unknown preset '" + name + "'" + did_you_mean(name, names) +
                              "; presets: " + known);
}

}  // namespace warptlm
