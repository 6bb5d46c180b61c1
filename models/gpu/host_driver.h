// A minimal host CPU for a standalone platform: from its SC_THREAD it
// programs one launch into the GPU's control registers (LT b_transport on its
// initiator socket), rings the doorbell, sleeps until the interrupt, reads
// the outcome, acknowledges the interrupt and stops the simulation (or, with
// several hosts in one platform, notifies finished_event() and ends).
// Made without a launch, it serves a sequence instead (a LaunchSession): each
// submit() before sc_start() is run the same way, then sc_pause() returns
// control to the caller with the simulation and the GPU's state kept.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <string>
#include <systemc>
#include <tlm>

#include "exec/launch.h"
#include "gpu/control_registers.h"

namespace warptlm {

struct HostLaunch {
  uint32_t program = 0;  // handle from Gpu::load_program
  uint32_t kernel = 0;   // the kernel's entry PC
  Dim3 grid, block;
  uint64_t param_address = 0;  // device address of the parameter buffer
  uint32_t dynamic_shared = 0;
  uint64_t grid_workspace = 0;  // a cooperative launch's (8 zeroed bytes); 0: ordinary
  bool stop_simulation = true;  // sc_stop() when done; false: only finished_event()
};

// The registers' values for `spec` launched from entry PC `kernel_pc` of
// program `handle`, with its parameters and grid workspace where the host
// placed them.
HostLaunch host_launch(uint32_t handle, uint32_t kernel_pc, const LaunchSpec& spec,
                       uint64_t param_address, uint64_t grid_workspace);

class HostDriver : public sc_core::sc_module {
 public:
  HostDriver(sc_core::sc_module_name name, const HostLaunch& launch);
  // A sequence driver: runs each submitted launch, then pauses the simulation.
  explicit HostDriver(sc_core::sc_module_name name);
  // The next launch of a sequence driver; call while the simulation is not
  // running, then sc_start(): it returns once the launch has ended.
  void submit(const HostLaunch& launch);

  tlm_utils::simple_initiator_socket<HostDriver> control;  // bind to Gpu::control
  sc_core::sc_in<bool> irq;                                // bind to the GPU's irq signal

  // The outcome, once the simulation has stopped.
  bool completed() const { return completed_; }  // the interrupt came and was acknowledged
  GpuStatus status() const { return status_; }
  GpuError error() const { return error_; }
  uint64_t launch_cycles() const { return launch_cycles_; }
  // The register access that failed ("" if none); the driver stops at it.
  const std::string& bus_error() const { return bus_error_; }
  // Notified when the driver is done (completed or stopped at a bus error).
  const sc_core::sc_event& finished_event() const { return finished_; }
  bool finished() const { return finished_flag_; }

 private:
  void run();
  void serve();  // the sequence driver's thread
  // Programs, rings, waits for the interrupt and acknowledges it; false at a bus error.
  bool run_launch();
  void finish();
  bool access(tlm::tlm_command command, uint32_t offset, uint32_t& value);
  bool write(uint32_t offset, uint32_t value) {
    return access(tlm::TLM_WRITE_COMMAND, offset, value);
  }
  bool read(uint32_t offset, uint32_t& value) {
    return access(tlm::TLM_READ_COMMAND, offset, value);
  }

  HostLaunch launch_;
  bool pending_ = false;  // a submitted launch not yet started
  sc_core::sc_event submitted_;
  bool completed_ = false;
  GpuStatus status_ = GpuStatus::Idle;
  GpuError error_ = GpuError::None;
  uint64_t launch_cycles_ = 0;
  std::string bus_error_;
  sc_core::sc_event finished_;
  bool finished_flag_ = false;
};

}  // namespace warptlm
