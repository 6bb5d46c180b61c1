#include "exec/functional_executor.h"

#include <algorithm>
#include <bitset>
#include <cstring>
#include <memory>
#include <sstream>

#include "compaction/compactability.h"
#include "compaction/lane_permutation.h"
#include "exec/cta_memory.h"
#include "exec/grid_runner.h"
#include "exec/kernel_args.h"
#include "exec/prepared_program.h"
#include "memory/device_memory.h"

namespace warptlm {

namespace {

std::string join_names(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

}  // namespace

std::string resolve_kernel_name(const Module& module, const std::string& entry) {
  const Function* kernel = module.find_function(entry);
  if (kernel && kernel->is_entry) return entry;
  // Itanium mangling: _Z, the name's length, the name, the parameter types.
  const std::string prefix = "_Z" + std::to_string(entry.size()) + entry;
  std::vector<std::string> matches;
  for (const Function& f : module.functions)
    if (f.is_entry && !entry.empty() && f.name.compare(0, prefix.size(), prefix) == 0)
      matches.push_back(f.name);
  if (matches.size() == 1) return matches[0];
  if (matches.size() > 1)
    throw std::invalid_argument("launch: kernel name '" + entry + "' is overloaded in " +
                                module.source_name + " (" + join_names(matches) +
                                "): name one by its PTX name");
  throw std::invalid_argument("launch: no kernel named '" + entry + "' in " + module.source_name +
                              " (kernels: " + kernel_names_text(module) + ")");
}

const Function& find_kernel(const Module& module, const std::string& entry) {
  return *module.find_function(resolve_kernel_name(module, entry));
}

void ExecConfig::validate() const {
  if (warp_size < 4 || warp_size > 64 || (warp_size & (warp_size - 1)) != 0)
    throw std::invalid_argument("warp_size: must be a power of two from 4 to 64, got " +
                                std::to_string(warp_size));
  if (simd_width < 1 || simd_width > 64)
    throw std::invalid_argument("simd_width: must be an integer in [1, 64], got " +
                                std::to_string(simd_width));
  if (quantum == 0) throw std::invalid_argument("quantum: must be positive");
  // Throws listing the known schemes, or for an option out of range.
  make_reconvergence_unit(reconvergence, warp_size, reconvergence_options(reconvergence, options));
  const std::vector<std::string> compactions = compaction_scheme_names();
  if (std::find(compactions.begin(), compactions.end(), compaction) == compactions.end())
    throw std::invalid_argument("compaction: unknown scheme '" + compaction +
                                "' (known: " + join_names(compactions) + ")");
  const std::vector<std::string> permutations = lane_permutation_names();
  if (std::find(permutations.begin(), permutations.end(), permutation) == permutations.end())
    throw std::invalid_argument("permutation: unknown permutation '" + permutation +
                                "' (known: " + join_names(permutations) + ")");
  // Every option is one a component declared, in its range; one of a
  // component that is not selected would be silently ignored.
  const std::vector<DeclaredOptions> declared = component_option_declarations();
  std::vector<std::string> fields;
  for (const DeclaredOptions& d : declared)
    for (const OptionInfo& o : d.options) fields.push_back(d.component + "." + o.name);
  for (const auto& entry : options)
    if (std::find(fields.begin(), fields.end(), entry.first) == fields.end())
      throw std::invalid_argument(
          "options: '" + entry.first +
          "' is no option of a registered scheme (options: " + join_names(fields) + ")");
  // In declaration order, as the configuration lists them.
  for (const DeclaredOptions& d : declared)
    for (const OptionInfo& o : d.options) {
      const std::string field = d.component + "." + o.name;
      const auto it = options.find(field);
      if (it == options.end()) continue;
      check_option_value(field, o, it->second);
      check_scheme_option(field, it->second, o.default_value, d.selector, d.component,
                          d.selector == "compaction" ? compaction : reconvergence);
    }
  if (compaction != "none" && reconvergence != "ipdom")
    throw std::invalid_argument("compaction '" + compaction +
                                "' uses the IPDOM reconvergence point: it works with "
                                "reconvergence=ipdom only, got '" +
                                reconvergence + "'");
}

void check_scheme_option(const std::string& field, int64_t value, int64_t default_value,
                         const std::string& selector, const std::string& owner,
                         const std::string& selected) {
  if (selected == owner || value == default_value) return;
  throw std::invalid_argument(field + ": an option of " + selector + "=" + owner + ", but " +
                              selector + " is '" + selected + "' (leave it at its default " +
                              std::to_string(default_value) + ")");
}

uint64_t launch_budget(uint64_t instruction_budget, const Dim3& grid, const Dim3& block,
                       unsigned warp_size) {
  if (instruction_budget) return instruction_budget;
  const uint64_t per_cta = warp_size ? (block.count() + warp_size - 1) / warp_size : 1;
  const uint64_t ctas = grid.count();
  // Saturating: grids reach 2^63 threads.
  const uint64_t cap_warps = kAutoBudgetMax / kAutoBudgetPerWarp;
  if (per_cta >= cap_warps || ctas >= cap_warps || per_cta * ctas >= cap_warps)
    return kAutoBudgetMax;
  return per_cta * ctas * kAutoBudgetPerWarp;
}

std::vector<std::string> compaction_scheme_names() {
  std::vector<std::string> names{"none"};
  for (std::string& name : compaction_unit_names()) names.push_back(std::move(name));
  return names;
}

CompactionSetup ExecConfig::compaction_setup() const {
  CompactionSetup s;
  s.warp_size = warp_size;
  s.permutation = permutation;
  s.seed = seed;
  if (compaction != "none") s.options = compaction_unit_options(compaction, options);
  return s;
}

std::vector<DeclaredOptions> component_option_declarations() {
  std::vector<DeclaredOptions> all = reconvergence_declared_options();
  for (DeclaredOptions& d : compaction_declared_options()) all.push_back(std::move(d));
  return all;
}

const Function& check_functional_launch(const Program& program, const std::string& entry,
                                        const LaunchSpec& launch, const ExecConfig& config,
                                        bool analysis, const std::vector<uint64_t>* buffer_sizes) {
  if (analysis && config.reconvergence != "ipdom")
    throw std::invalid_argument(
        "analysis: the compactability analysis runs under the block-wide IPDOM stack: it works "
        "with reconvergence=ipdom only, got '" +
        config.reconvergence + "'");
  const Module& module = program.module;
  const Function* kernel = &find_kernel(module, entry);
  check_launch(module, *kernel, launch, config.warp_size, buffer_sizes);
  check_program_form(program, config.reconvergence);
  // The SM limits a timing run's GPU refuses a launch by (gpu_launch.cc).
  const CtaResources cta = cta_resources(module, *kernel, launch.block, launch.shared_bytes,
                                         config.sm, config.warp_size);
  if (auto fit = cta_fit_problem(cta, launch.shared_bytes, config.sm, config.warp_size,
                                 /*whole_warp_slots=*/false))
    throw std::invalid_argument("launch: kernel '" + kernel->name + "' with block " +
                                dim_string(launch.block) + ": " + fit->message);
  if (launch.cooperative) {
    const std::string problem = cooperative_fit_problem(launch.grid.count(), cta, config.sm,
                                                        config.warp_size, config.num_sms);
    if (!problem.empty())
      throw std::invalid_argument("launch: kernel '" + kernel->name + "': " + problem);
    if (config.compaction != "none" || analysis)
      throw std::invalid_argument(kCooperativeCompaction);
  }
  return *kernel;
}

RunStats run_grid(const Program& program, const Function& kernel, LaunchSpec& launch,
                  KernelMemory& mem, const std::vector<uint64_t>& buffer_addresses,
                  const PlaceFn& place, const ExecConfig& config, TraceSink* trace,
                  CompactionAnalysis* analysis) {
  const LaunchExtras extras = place_launch_extras(launch, buffer_addresses, place);
  mem.params =
      build_param_buffer(program.module, kernel, launch, buffer_addresses, extras.descriptors);
  mem.console.clear();
  if (analysis) analysis->reset(config.warp_size, config.seed);
  GridRunner runner(program, kernel, mem,
                    GridShape{launch.grid, launch.block, launch.shared_bytes, extras.workspace},
                    config, trace, analysis);
  RunStats stats;
  try {
    stats = launch.cooperative ? runner.run_all_resident() : runner.run();
  } catch (KernelFault& f) {
    f.output = std::move(mem.console);
    throw;
  }
  stats.note_program(program.module);
  launch.output = std::move(mem.console);
  return stats;
}

RunStats run_functional(const Program& program, const std::string& entry, LaunchSpec& launch,
                        const ExecConfig& config, TraceSink* trace, CompactionAnalysis* analysis) {
  config.validate();
  const Function& kernel =
      check_functional_launch(program, entry, launch, config, analysis != nullptr);
  const Module& module = program.module;

  DeviceMemory global;
  KernelMemory mem;
  mem.global = &global;
  if (module.global_data_size)
    mem.globals_base = global.allocate(module.global_data_size, "module .global variables");
  init_module_memory(module, mem);
  std::vector<uint64_t> addresses;
  for (const HostBuffer& b : launch.buffers) {
    uint64_t a = global.allocate(b.bytes.size(), b.name);
    global.write(a, b.bytes.data(), b.bytes.size());
    addresses.push_back(a);
  }
  const RunStats stats = run_grid(
      program, kernel, launch, mem, addresses,
      [&](const uint8_t* data, uint64_t n, const char* what) {
        const uint64_t a = global.allocate(n, what);
        global.write(a, data, n);
        return a;
      },
      config, trace, analysis);
  for (size_t i = 0; i < launch.buffers.size(); ++i)
    global.read(addresses[i], launch.buffers[i].bytes.data(), launch.buffers[i].bytes.size());
  return stats;
}

}  // namespace warptlm
