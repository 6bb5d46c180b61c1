// The launch sequence of the Gpu top: the doorbell validates the launch
// registers, builds the KernelLaunch and starts the distributor; the end of the
// launch updates STATUS, ERROR, LAUNCH_CYCLES, IRQ_STATUS and the irq output.

#include "exec/warp_issuer.h"
#include "gpu/gpu.h"

namespace warptlm {
namespace {

// PTX limits on launch geometry (CUDA compute capability 3.0 and later).
constexpr uint32_t kMaxGridX = 0x7FFFFFFF;
constexpr uint32_t kMaxGridYZ = 65535;
constexpr uint32_t kMaxBlockXY = 1024;
constexpr uint32_t kMaxBlockZ = 64;
constexpr uint64_t kMaxBlockThreads = 1024;

GpuError error_for(SmResource r) {
  switch (r) {
    case SmResource::Registers:
      return GpuError::CtaRegisters;
    case SmResource::SharedMemory:
      return GpuError::CtaShared;
    case SmResource::LocalMemory:
      return GpuError::ThreadLocal;
    default:
      return GpuError::CtaWarps;
  }
}

// The first thing wrong with the geometry, or "" (messages as check_launch's).
std::string geometry_problem(const Dim3& grid, const Dim3& block, GpuError* error) {
  *error = GpuError::BadGrid;
  if (grid.x == 0 || grid.y == 0 || grid.z == 0)
    return "launch: grid dimensions must be positive, got " + dim_string(grid);
  if (grid.x > kMaxGridX || grid.y > kMaxGridYZ || grid.z > kMaxGridYZ)
    return "launch: grid " + dim_string(grid) + " exceeds the PTX limits (" +
           std::to_string(kMaxGridX) + "," + std::to_string(kMaxGridYZ) + "," +
           std::to_string(kMaxGridYZ) + ")";
  *error = GpuError::BadBlock;
  if (block.x == 0 || block.y == 0 || block.z == 0)
    return "launch: block dimensions must be positive, got " + dim_string(block);
  if (block.x > kMaxBlockXY || block.y > kMaxBlockXY)
    return "launch: block x and y dimensions may be at most 1024, got " + dim_string(block);
  if (block.z > kMaxBlockZ)
    return "launch: block z dimension may be at most 64, got " + std::to_string(block.z);
  if (block.count() > kMaxBlockThreads)
    return "launch: a CTA may hold at most 1024 threads, block has " +
           std::to_string(block.count());
  return "";
}

}  // namespace

void Gpu::refuse(GpuError error, const std::string& message) {
  set_error(message);
  warn(message);
  fault_.reset();
  last_launch_cycles_ = 0;
  regs_.end_launch(GpuStatus::LaunchError, error, 0);
  outputs_changed_.notify(sc_core::SC_ZERO_TIME);
  launch_finished_.notify(sc_core::SC_ZERO_TIME);
}

std::string Gpu::not_a_handle(const char* what, uint32_t handle) const {
  // Handles come from load_program and from the LOAD command alike: 1..N in load order.
  return std::string(what) + ": PROGRAM = " + std::to_string(handle) +
         " is not a program handle (" +
         (programs_.empty() ? std::string("no program is loaded")
                            : "loaded: 1.." + std::to_string(programs_.size())) +
         ")";
}

void Gpu::doorbell() {
  if (faulted_)
    return refuse(GpuError::Faulted,
                  "launch: the GPU is unusable after the kernel fault of launch " +
                      std::to_string(launch_.id) + " (" + sticky_fault_ +
                      "); reset it (the RESET register or the rst input)");
  const uint32_t handle = regs_.program();
  if (handle == 0 || handle > programs_.size())
    return refuse(GpuError::BadProgram, not_a_handle("launch", handle));
  const LoadedProgram& lp = *programs_[handle - 1];
  const Module& m = lp.program.module;
  const Function* kernel = nullptr;
  std::string kernels;
  for (const Function& f : m.functions) {
    if (!f.is_entry) continue;
    if (f.begin == regs_.kernel()) kernel = &f;
    kernels += (kernels.empty() ? "" : ", ") + f.name + " at " + hex_string(f.begin);
  }
  if (!kernel)
    return refuse(GpuError::BadKernel, "launch: KERNEL = " + hex_string(regs_.kernel()) +
                                           " is not the entry address of a kernel of program " +
                                           std::to_string(handle) + " (kernels: " + kernels + ")");
  const Dim3 grid = regs_.grid(), block = regs_.block();
  GpuError geometry_error = GpuError::None;
  std::string problem = geometry_problem(grid, block, &geometry_error);
  if (!problem.empty()) return refuse(geometry_error, problem);

  GlobalMemory& global = functional_memory();
  launch_memory_.global = &global;
  launch_memory_.globals_base = lp.globals_base;
  launch_memory_.constants = lp.constants;
  launch_memory_.console.clear();

  launch_.program = &lp.program;
  launch_.kernel = kernel;
  launch_.grid = grid;
  launch_.block = block;
  launch_.dynamic_shared = regs_.dynamic_shared();
  launch_.grid_workspace = regs_.grid_workspace();
  launch_.memory = &launch_memory_;
  launch_.global_writes = &port_;
  launch_.per_cta = cta_resources(lp.program.module, *kernel, block, launch_.dynamic_shared,
                                  config_.sm.limits(), config_.warp_size);
  launch_.instruction_budget =
      launch_budget(config_.instruction_budget, grid, block, config_.warp_size);
  launch_.layouts = RegisterLayouts(lp.program.module, config_.warp_size);
  launch_.issued = 0;
  if (auto fit = distributor_.check_fit(launch_))
    return refuse(error_for(fit->resource), "launch: kernel '" + kernel->name + "' with block " +
                                                dim_string(block) + ": " + fit->message);
  if (launch_.grid_workspace) {
    const std::string too_large = cooperative_fit_problem(
        grid.count(), launch_.per_cta, config_.sm.limits(), config_.warp_size, config_.num_sms);
    if (!too_large.empty())
      return refuse(GpuError::Cooperative, "launch: kernel '" + kernel->name + "': " + too_large);
    if (config_.compaction != "none") return refuse(GpuError::Cooperative, kCooperativeCompaction);
  }

  // The parameter buffer is read once, at the doorbell, from the GPU's
  // functional view of device memory (zero time, as a constant-bank copy).
  launch_memory_.params.assign(kernel->param_buffer_size, 0);
  const uint64_t param_address = regs_.param_address();
  if (kernel->param_buffer_size &&
      !global.read(param_address, launch_memory_.params.data(), kernel->param_buffer_size)) {
    std::string near = global.describe(param_address);
    return refuse(GpuError::BadParams, "launch: the parameter buffer of kernel '" + kernel->name +
                                           "' (" + std::to_string(kernel->param_buffer_size) +
                                           " bytes at PARAM_ADDR " + hex_string(param_address) +
                                           ") is not inside one device allocation" +
                                           (near.empty() ? "" : " (" + near + ")"));
  }

  // A program's .global variables in a bound memory are initialised when its
  // first launch starts (the memory port's debug access needs elaboration done).
  LoadedProgram& loaded = *programs_[handle - 1];
  if (!loaded.globals_written) {
    if (!write_module_globals(lp.program.module, global, loaded.globals_base))
      return refuse(GpuError::BadProgram, "launch: the .global variables of program " +
                                              std::to_string(handle) + " cannot be written at " +
                                              hex_string(loaded.globals_base) +
                                              " in the memory bound to the GPU (" +
                                              global.describe(loaded.globals_base) + ")");
    loaded.globals_written = true;
  }

  ++launch_.id;  // counts started launches only
  set_error("");
  fault_.reset();
  regs_.begin_launch();
  launch_start_cycle_ = cycles();
  if (lt_)
    lt_->start(launch_);
  else
    distributor_.start(launch_);
  outputs_changed_.notify(sc_core::SC_ZERO_TIME);
}

void Gpu::on_finished() {
  const uint64_t c = cycles() - launch_start_cycle_;
  last_launch_cycles_ = c;
  busy_cycles_ += c;
  const std::optional<KernelFault>& fault = lt_ ? lt_->fault() : distributor_.fault();
  if (fault) {
    fault_ = fault;
    faulted_ = true;
    sticky_fault_ = fault_->what();
    set_error(sticky_fault_);
    warn(last_error_);
    regs_.end_launch(GpuStatus::Fault, GpuError::KernelFault, c);
  } else {
    regs_.end_launch(GpuStatus::Done, GpuError::None, c);
  }
  outputs_changed_.notify(sc_core::SC_ZERO_TIME);
  launch_finished_.notify(sc_core::SC_ZERO_TIME);
}

}  // namespace warptlm
