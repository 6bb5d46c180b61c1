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

// GPGPU-Sim's own GTX480 configuration (configs/tested-cfgs/SM2_GTX480/
// gpgpusim.config), option by option; docs/gpgpusim-presets.md maps every
// option of that file to the field here or says what warptlm does instead.
PlatformConfig gtx480() {
  PlatformConfig c;
  c.num_sms = 15;                     // -gpgpu_n_clusters 15 x -gpgpu_n_cores_per_cluster 1
  c.scheduler = "gto";                // -gpgpu_scheduler gto
  c.sm.threads = 1536;                // -gpgpu_shader_core_pipeline 1536:32
  c.sm.warps = 48;                    // 1536 / 32
  c.sm.ctas = 8;                      // -gpgpu_shader_cta 8
  c.sm.registers = 32768;             // -gpgpu_shader_registers 32768
  c.sm.shared_memory = 49152;         // -gpgpu_shmem_size 49152
  c.sm.shared_latency = 26;           // -gpgpu_smem_latency 26
  c.sm.shared_banks = 32;             // -gpgpu_shmem_num_banks 32
  c.sm.schedulers = 2;                // -gpgpu_num_sched_per_core 2
  c.sm.register_banks = 16;           // -gpgpu_num_reg_banks 16
  c.sm.collectors = 14;               // -gpgpu_operand_collector_num_units_sp 6 + _sfu 8
  c.sm.sp = PipelineConfig{2, 4, 1};  // -gpgpu_num_sp_units 2; ADD latency 4, initiation 1
  c.sm.sfu.units = 1;                 // -gpgpu_num_sfu_units 1
  c.sm.clock_mhz = 700.0;             // -gpgpu_clock_domains 700.0:700.0:700.0:924.0
  // -gpgpu_cache:il1 N:4:128:4: 4 sets x 128 B x 4 ways
  c.sm.icache_size = 4 * 128 * 4;
  c.sm.icache_assoc = 4;
  c.sm.icache_line = 128;
  // -gpgpu_cache:dl1 N:32:128:4,L:L:m:N:H,S:64:8,8: 16 KB, 4-way, 128 B lines,
  // global writes through, 64 MSHRs; -gpgpu_l1_latency 35
  c.memory.l1 = CacheConfig{32 * 128 * 4, 4, 128, 64, 35, 1, "write_through", true};
  // -gpgpu_cache:dl2 S:64:128:8,L:B:m:L:L,A:256:4 per memory sub-partition,
  // 6 channels x 2 sub-partitions: 12 slices of 64 KB (768 KB), write-back,
  // 256 MSHRs each; -gpgpu_l2_rop_latency 120
  c.memory.l2 = CacheConfig{12 * 64 * 128 * 8, 8, 128, 256, 120, 12, "write_back", true};
  c.memory.dram.channels = 6;  // -gpgpu_n_mem 6
  c.memory.dram.banks = 16;    // nbk=16
  // -gpgpu_mem_addr_mapping: 6 column bits above a 64-byte burst: 4 KB rows
  c.memory.dram.row_size = 4096;
  // -gpgpu_n_mem_per_ctrlr 2 x -gpgpu_dram_buswidth 4 bytes, GDDR5 moves data
  // four times per command clock (-dram_data_command_freq_ratio 4)
  c.memory.dram.bus_width = 32;
  c.memory.dram.scheduler = "frfcfs";  // -gpgpu_dram_scheduler 1
  c.memory.dram.t_cas = 12;            // CL=12
  c.memory.dram.t_rcd = 12;            // RCD=12
  c.memory.dram.t_rp = 12;             // RP=12
  c.memory.dram.clock_mhz = 924.0;
  return c;
}

// GPGPU-Sim's own Quadro/Tesla V100 configuration (configs/tested-cfgs/
// SM7_QV100/gpgpusim.config), option by option (docs/gpgpusim-presets.md).
PlatformConfig qv100() {
  PlatformConfig c;
  c.num_sms = 80;                       // -gpgpu_n_clusters 80 x 1
  c.scheduler = "gto";                  // -gpgpu_scheduler gto
  c.sm.threads = 2048;                  // -gpgpu_shader_core_pipeline 2048:32
  c.sm.warps = 64;                      // 2048 / 32
  c.sm.ctas = 32;                       // -gpgpu_shader_cta 32
  c.sm.registers = 65536;               // -gpgpu_shader_registers 65536
  c.sm.max_registers_per_thread = 255;  // compute capability 7.0
  c.sm.shared_memory = 98304;           // -gpgpu_shmem_size 98304
  c.sm.shared_latency = 19;             // -smem_latency 19
  c.sm.shared_banks = 32;               // -gpgpu_shmem_num_banks 32
  c.sm.schedulers = 4;                  // -gpgpu_num_sched_per_core 4
  c.sm.register_banks = 8;              // -gpgpu_num_reg_banks 8
  c.sm.collectors = 8;                  // -gpgpu_operand_collector_num_units_gen 8
  // -gpgpu_num_sp_units 4; FP ADD latency 4, initiation interval 2
  c.sm.sp = PipelineConfig{4, 4, 2};
  c.sm.sfu = PipelineConfig{4, 100, 8};  // -gpgpu_num_sfu_units 4; sfu latency 100, interval 8
  c.sm.ldst.units = 4;                   // -mem_unit_ports 4
  // -gpgpu_num_tensor_core_units 4; -ptx_opcode_latency_tesnor 64,
  // -ptx_opcode_initiation_tensor 64
  c.sm.tensor = PipelineConfig{4, 64, 64};
  c.sm.clock_mhz = 1132.0;  // -gpgpu_clock_domains 1132.0:1132.0:1132.0:850.0
  // -gpgpu_cache:il1 N:64:128:16: 128 KB, 16-way, 128 B lines
  c.sm.icache_size = 64 * 128 * 16;
  c.sm.icache_assoc = 16;
  c.sm.icache_line = 128;
  // -gpgpu_cache:dl1 S:4:128:64,L:L:s:N:L,A:256:8: 32 KB (the unified 128 KB
  // less 96 KB of shared memory), 64-way, 128 B lines, global writes through,
  // 256 MSHRs; -l1_latency 28
  c.memory.l1 = CacheConfig{4 * 128 * 64, 64, 128, 256, 28, 1, "write_through", true};
  // -gpgpu_cache:dl2 S:32:128:24,L:B:m:L:L,A:192:4 per sub-partition, 32
  // channels x 2: 64 slices of 96 KB (6 MB), write-back; -rop_latency 120
  c.memory.l2 = CacheConfig{64 * 32 * 128 * 24, 24, 128, 192, 120, 64, "write_back", true};
  c.memory.dram.channels = 32;  // -gpgpu_n_mem 32
  c.memory.dram.banks = 16;     // nbk=16
  // -gpgpu_mem_addr_mapping: 6 column bits above a 32-byte burst: 2 KB rows
  c.memory.dram.row_size = 2048;
  // -gpgpu_dram_buswidth 16 bytes, HBM moves data twice per command clock
  // (-dram_data_command_freq_ratio 2)
  c.memory.dram.bus_width = 32;
  c.memory.dram.scheduler = "frfcfs";  // -gpgpu_dram_scheduler 1
  c.memory.dram.t_cas = 12;            // CL=12
  c.memory.dram.t_rcd = 12;            // RCD=12
  c.memory.dram.t_rp = 12;             // RP=12
  c.memory.dram.clock_mhz = 850.0;
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
      {{"gtx480",
        "GPGPU-Sim's SM2_GTX480 configuration, option by option: 15 SMs, 1536 threads/SM, "
        "32768 registers, 48 KB shared, L1 16KB/4-way/128B, L2 768KB in 12 slices, 6 GDDR5 "
        "channels, GTO (docs/gpgpusim-presets.md)"},
       gtx480},
      {{"qv100",
        "GPGPU-Sim's SM7_QV100 configuration, option by option: 80 SMs, 2048 threads/SM, 4 "
        "schedulers, 65536 registers, 96 KB shared, L1 32KB/64-way/128B, L2 6MB in 64 slices, "
        "32 HBM channels, GTO (docs/gpgpusim-presets.md)"},
       qv100},
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
