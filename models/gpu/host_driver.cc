#include "gpu/host_driver.h"

#include <sstream>

#include "transaction/blocking_access.h"

namespace warptlm {

HostLaunch host_launch(uint32_t handle, uint32_t kernel_pc, const LaunchSpec& spec,
                       uint64_t param_address, uint64_t grid_workspace) {
  HostLaunch hl;
  hl.program = handle;
  hl.kernel = kernel_pc;
  hl.grid = spec.grid;
  hl.block = spec.block;
  hl.param_address = param_address;
  hl.dynamic_shared = spec.shared_bytes;
  hl.grid_workspace = grid_workspace;
  return hl;
}

HostDriver::HostDriver(sc_core::sc_module_name name, const HostLaunch& launch)
    : sc_module(name), control("control"), irq("irq"), launch_(launch) {
  SC_HAS_PROCESS(HostDriver);
  SC_THREAD(run);
}

HostDriver::HostDriver(sc_core::sc_module_name name)
    : sc_module(name), control("control"), irq("irq") {
  SC_HAS_PROCESS(HostDriver);
  SC_THREAD(serve);
}

void HostDriver::submit(const HostLaunch& launch) {
  launch_ = launch;
  launch_.stop_simulation = false;
  pending_ = true;
  completed_ = false;
  status_ = GpuStatus::Idle;
  error_ = GpuError::None;
  launch_cycles_ = 0;
  submitted_.notify(sc_core::SC_ZERO_TIME);
}

void HostDriver::serve() {
  for (;;) {
    while (!pending_) sc_core::wait(submitted_);
    pending_ = false;
    // At a bus error the register state is unknown: the sequence ends there.
    const bool ok = run_launch();
    if (!ok) finish();
    sc_core::sc_pause();
    if (!ok) return;
  }
}

bool HostDriver::access(tlm::tlm_command command, uint32_t offset, uint32_t& value) {
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  const tlm::tlm_response_status s = register_access(control, command, offset, value, delay);
  if (delay > sc_core::SC_ZERO_TIME) sc_core::wait(delay);
  if (s != tlm::TLM_OK_RESPONSE) {
    std::ostringstream os;
    os << (command == tlm::TLM_READ_COMMAND ? "read of" : "write to") << " control register 0x"
       << std::hex << offset << " failed: " << response_text(s);
    bus_error_ = os.str();
    return false;
  }
  return true;
}

void HostDriver::finish() {
  finished_flag_ = true;
  finished_.notify(sc_core::SC_ZERO_TIME);
  if (launch_.stop_simulation) sc_core::sc_stop();
}

void HostDriver::run() {
  run_launch();
  finish();
}

bool HostDriver::run_launch() {
  const HostLaunch& l = launch_;
  const std::pair<uint32_t, uint32_t> program[] = {
      {reg::kIrqEnable, kIrqMask},
      {reg::kProgram, l.program},
      {reg::kKernel, l.kernel},
      {reg::kGridX, l.grid.x},
      {reg::kGridY, l.grid.y},
      {reg::kGridZ, l.grid.z},
      {reg::kBlockX, l.block.x},
      {reg::kBlockY, l.block.y},
      {reg::kBlockZ, l.block.z},
      {reg::kParamAddrLo, static_cast<uint32_t>(l.param_address)},
      {reg::kParamAddrHi, static_cast<uint32_t>(l.param_address >> 32)},
      {reg::kDynShared, l.dynamic_shared},
      {reg::kGridWorkspaceLo, static_cast<uint32_t>(l.grid_workspace)},
      {reg::kGridWorkspaceHi, static_cast<uint32_t>(l.grid_workspace >> 32)},
      {reg::kLaunch, 1},
  };
  for (auto [offset, value] : program)
    if (!write(offset, value)) return false;

  while (!irq.read()) sc_core::wait(irq.value_changed_event());
  // Tracers (VCD) record a time step's values when time moves on; a host that
  // answered and stopped within the step of the interrupt would leave the
  // launch's last transitions (irq, running, resident CTAs) out of the trace.
  // One time-resolution step before the answer and one after it keep both;
  // the GPU is idle by then, so no statistic moves.
  const sc_core::sc_time step = sc_core::sc_get_time_resolution();
  sc_core::wait(step);

  uint32_t status = 0, error = 0, lo = 0, hi = 0, pending = 0;
  if (!read(reg::kStatus, status) || !read(reg::kError, error) || !read(reg::kLaunchCyclesLo, lo) ||
      !read(reg::kLaunchCyclesHi, hi) || !read(reg::kIrqStatus, pending) ||
      !write(reg::kIrqStatus, pending))  // acknowledge
    return false;
  status_ = static_cast<GpuStatus>(status);
  error_ = static_cast<GpuError>(error);
  launch_cycles_ = uint64_t(hi) << 32 | lo;
  completed_ = true;
  sc_core::wait(step);
  return true;
}

}  // namespace warptlm
