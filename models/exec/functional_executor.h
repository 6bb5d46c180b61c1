// The functional executor: runs a whole grid exactly, warp by warp, with a
// reconvergence unit per warp. The ground truth the timing model must match.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "compaction/compaction_unit.h"
#include "exec/cta_fit.h"
#include "exec/cta_memory.h"
#include "exec/kernel_args.h"
#include "exec/launch.h"
#include "exec/run_stats.h"
#include "exec/trace.h"
#include "frontend/program.h"
#include "simt/reconvergence_unit.h"

namespace warptlm {

class CompactionAnalysis;

// The compaction a configuration may name: "none", then the registered
// compaction units (compaction_unit_names(): tbc, capri, ideal and any a user
// registered; docs/compaction.md).
std::vector<std::string> compaction_scheme_names();

struct ExecConfig {
  unsigned warp_size = 32;   // 4..64
  unsigned simd_width = 32;  // SIMD lanes (1..64); only the simd_utilisation statistic reads it
  // Warp instructions the whole launch may issue before a "runaway kernel"
  // fault; 0 (the default) scales with the launch: see launch_budget().
  uint64_t instruction_budget = 0;
  // The no-progress watchdog: warp instructions one warp may issue in a row
  // without a store to global or shared memory, an atomic, a barrier or an
  // exit before it faults as spinning; 0 turns it off.
  uint64_t watchdog = 1ull << 20;
  unsigned quantum = 64;  // warp instructions a warp runs before the next warp of its CTA
  std::string reconvergence = "ipdom";
  // The options of the reconvergence schemes and compaction units
  // (registry/component_options.h) set away from their defaults, by field
  // ("mp_ipdom.st_entries", "capri.entries"); each must stay at its default
  // unless its component is selected.
  OptionValues options;
  // Thread block compaction: "none" or a compaction unit's name, such as
  // "tbc" (threads keep their home lanes), "capri" (tbc at the divergent
  // branches CAPRI's table predicts worth it, the static warps elsewhere) or
  // "ideal" (any lane); all but none run each CTA in lockstep under a
  // block-wide IPDOM stack and need reconvergence "ipdom".
  std::string compaction = "none";
  // The SIMD lane permutation (lane_permutation_names()) that decides home
  // lanes under tbc; changes nothing functional, so any value is valid with
  // compaction "none".
  std::string permutation = "none";
  uint64_t seed = 1;  // of the permutations that draw (random)
  // The SM resources a CTA must fit into (PlatformConfig's sm.*): functional
  // runs refuse the launches a timing run's GPU would refuse.
  SmLimits sm;
  // SMs of the GPU: how many CTAs a cooperative launch may have (num_sms x
  // ctas_per_sm); nothing else in functional mode depends on it.
  unsigned num_sms = 1;
  // Throws std::invalid_argument naming the field when a value is out of
  // range, an option is unknown, or an option of a component (mp_ipdom.*,
  // capri.*) is set away from its default while another one is selected.
  void validate() const;
  // What the compaction unit's factory reads.
  CompactionSetup compaction_setup() const;
};

// The automatic instruction budget (instruction_budget = 0): 2^24 warp
// instructions per warp of the launch, at most 2^32, so a small launch that
// loops forever is stopped in about a second; a configured budget is kept.
constexpr uint64_t kAutoBudgetPerWarp = uint64_t(1) << 24;
constexpr uint64_t kAutoBudgetMax = uint64_t(1) << 32;
uint64_t launch_budget(uint64_t instruction_budget, const Dim3& grid, const Dim3& block,
                       unsigned warp_size);

// The options every reconvergence scheme and compaction unit declares, in
// that order: the configuration's fields "<component>.<option>".
std::vector<DeclaredOptions> component_option_declarations();

// The combination rule for scheme options (docs/reconvergence.md, "Scheme
// options"): throws std::invalid_argument when option `field` of the scheme
// `selector`=`owner` differs from its default while `selector` is `selected`.
void check_scheme_option(const std::string& field, int64_t value, int64_t default_value,
                         const std::string& selector, const std::string& owner,
                         const std::string& selected);

// Where a kernel fault happened, for tools that report it field by field
// (the Python KernelError); what() says the same in words.
struct FaultSite {
  std::string kernel;
  Pc pc = kExitPc;          // kExitPc when unknown
  bool has_thread = false;  // tid, ctaid, warp and lane are set
  Dim3 tid, ctaid;
  uint32_t warp = 0, lane = 0;
  bool has_address = false;  // a memory fault: space and address are set
  Space space = Space::Global;
  uint64_t address = 0;
};

// A fault inside a kernel: bad memory access, barrier deadlock, runaway
// kernel, unsupported operation. what() names kernel, PC, thread and address.
class KernelFault : public std::runtime_error {
 public:
  explicit KernelFault(const std::string& what) : std::runtime_error(what) {}
  KernelFault(const std::string& what, FaultSite site)
      : std::runtime_error(what), site(std::move(site)) {}
  FaultSite site;
  // What the launch's printf calls wrote before the fault (launch order).
  std::string output;
};

// The PTX name of kernel `entry`: itself, or for a C++ kernel's plain name
// (vadd) its one mangled entry (_Z4vaddPfS_i), as the Python package
// accepts it. Throws std::invalid_argument naming the module's kernels (or,
// for an overloaded name, its candidates).
std::string resolve_kernel_name(const Module& module, const std::string& entry);
// The .entry `entry` names (resolve_kernel_name).
const Function& find_kernel(const Module& module, const std::string& entry);

// Runs kernel `entry` of `program` over launch.grid x launch.block threads.
// Buffers are copied to device memory before the run and back into
// launch.buffers after it. Throws std::invalid_argument for a bad launch
// (unknown kernel, wrong argument count/types, bad geometry) and KernelFault
// for faults during the run. With a `trace` sink, every issued warp
// instruction is reported to it in issue order.
// With an `analysis`, every CTA runs in lockstep under the block-wide stack
// (as compaction "tbc" does; the statistics count the configured compaction)
// and the analysis is filled with the compactability of every path and
// instruction (compaction/compactability.h); it needs reconvergence "ipdom".
RunStats run_functional(const Program& program, const std::string& entry, LaunchSpec& launch,
                        const ExecConfig& config = {}, TraceSink* trace = nullptr,
                        CompactionAnalysis* analysis = nullptr);

// The two halves of run_functional, for runners that keep device memory
// between launches (LaunchSession). check_functional_launch: every check
// before anything is placed (kernel, arguments, program form, the SM limits,
// a cooperative grid); `buffer_sizes` as check_launch takes them. run_grid:
// places the launch's extras with `place`, builds the parameter buffer over
// `buffer_addresses` and runs the grid against `mem` (whose global memory,
// globals and constants the caller set up); launch.output gets the printf
// text. Throws as run_functional.
const Function& check_functional_launch(const Program& program, const std::string& entry,
                                        const LaunchSpec& launch, const ExecConfig& config,
                                        bool analysis,
                                        const std::vector<uint64_t>* buffer_sizes = nullptr);
RunStats run_grid(const Program& program, const Function& kernel, LaunchSpec& launch,
                  KernelMemory& mem, const std::vector<uint64_t>& buffer_addresses,
                  const PlaceFn& place, const ExecConfig& config, TraceSink* trace,
                  CompactionAnalysis* analysis);

}  // namespace warptlm
