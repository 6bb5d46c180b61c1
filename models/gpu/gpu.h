// The GPU top module: memory-mapped control registers on a TLM target socket,
// the workgroup distributor, num_sms streaming multiprocessors, the
// interconnect, the L2 slices and the memory port whose traffic leaves on one
// TLM initiator socket (bound to a default DRAM model when the platform binds
// nothing), and an interrupt output raised when a launch completes.
#pragma once

#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "config/platform_config.h"
#include "dram/dram_model.h"
#include "exec/cta_memory.h"
#include "exec/functional_executor.h"
#include "exec/run_stats.h"
#include "frontend/program.h"
#include "gpu/bound_memory.h"
#include "gpu/control_registers.h"
#include "gpu/lt_runner.h"
#include "gpu/workgroup_distributor.h"
#include "interconnect/interconnect.h"
#include "interconnect/memory_port.h"
#include "l2/l2_slice.h"
#include "sm/kernel_launch.h"
#include "sm/sm_clock.h"
#include "sm/streaming_multiprocessor.h"
#include "transaction/wakeup_scheduler.h"

namespace warptlm {

class TraceSink;

// The core clock period for `config` (1 / sm.clock_mhz), the one every timing
// component is given.
sc_core::sc_time core_clock_period(const PlatformConfig& config);

class Gpu : public sc_core::sc_module {
 public:
  // Throws std::invalid_argument naming the field when `config` is invalid.
  Gpu(sc_core::sc_module_name name, const PlatformConfig& config);
  ~Gpu() override;

  tlm_utils::simple_target_socket<Gpu> control;  // the registers (control_registers.h)
  tlm::tlm_initiator_socket<> memory;            // all global-memory traffic leaves here
  sc_core::sc_out<bool> irq;  // IRQ_STATUS & IRQ_ENABLE != 0; bound internally if left unbound
  // Active high: a rising edge resets the GPU as reset() does. Optional: bound
  // internally (and never raised) if the platform leaves it unbound.
  sc_core::sc_in<bool> rst;

  // Host side (like cuModuleLoad): keeps a copy of `program`, places its
  // .global variables, keeps its .const bank, and returns the handle for
  // PROGRAM (1, 2, ...). With the default DRAM the variables are allocated in
  // default_store() and initialised at once; with a memory bound to `memory`
  // they go at `globals_address` in it (the platform's choice, like any device
  // allocation) and are initialised through debug transport when the first
  // launch of the program starts. Throws std::invalid_argument when the
  // configured reconvergence scheme needs reconvergence markers the program
  // lacks, or when a bound memory is used and a program with .global
  // variables gets no globals_address.
  uint32_t load_program(const Program& program, uint64_t globals_address = 0);
  // The loaded program behind `handle`; nullptr when there is none.
  const Program* program(uint32_t handle) const;

  // Back to the reset state, at any time (what the RESET register and a
  // rising edge of `rst` do; docs/gpu-registers.md "Reset"): a running launch
  // is abandoned (no interrupt; launch_finished_event() is notified), the SMs
  // drop their CTAs and L1 contents and ignore the answers to requests they
  // sent before, every register returns to its reset value (irq low, CYCLE
  // from 0), a kernel fault is forgotten. Loaded programs and their handles
  // stay; statistics keep counting across resets.
  void reset();
  uint64_t resets() const { return resets_; }

  // The backing store of the default DRAM model and, with it, the functional
  // view of global memory the SMs execute against; the host allocates and
  // fills buffers here. With a memory bound to `memory`, the SMs read and
  // write that memory instead (debug transport through the memory port, at
  // issue) and this store is unused.
  DeviceMemory& default_store() { return store_; }
  bool has_default_dram() const { return dram_ != nullptr; }
  const PlatformConfig& config() const { return config_; }  // as validated at construction
  // The program of the launch running or last run (nullptr before the first):
  // what a trace sink needs to name the PCs it sees.
  const Program* launch_program() const { return launch_.program; }

  void set_trace(TraceSink* trace);  // forwards to every SM
  nlohmann::json stats() const;      // flat, see docs/gpu-registers.md "Statistics"
  // The SMs' instruction counts summed, as run_functional reports them.
  RunStats run_stats() const;
  // The fault of the last launch, if it ended in one (STATUS says so).
  const std::optional<KernelFault>& fault() const { return fault_; }
  // What the last launch's printf calls wrote so far (KernelMemory::console).
  const std::string& console() const { return launch_memory_.console; }
  // Text of the last refused launch, or of the fault; empty after a success.
  std::string last_error() const { return last_error_; }

  // Notified (delta) when a launch ends (done, refused or faulted); the
  // registers are already updated, the irq output changes a delta cycle later.
  const sc_core::sc_event& launch_finished_event() const { return launch_finished_; }
  const ControlRegisters& registers() const { return regs_; }
  uint64_t cycles() const;  // core cycles since reset (the CYCLE register)
  sc_core::sc_time cycle() const { return cycle_; }
  // Adds the top-level activity to a VCD: irq, STATUS, launch running, and
  // resident CTAs per SM. Call during elaboration.
  void trace_signals(sc_core::sc_trace_file* file) const;

 private:
  struct LoadedProgram {
    Program program;
    uint64_t globals_base = 0;
    std::vector<uint8_t> constants;
    bool globals_written = false;  // initial .global values are in memory
  };
  GlobalMemory& functional_memory();
  bool memory_bound_outside();  // bind_count() is not const in SystemC

  void before_end_of_elaboration() override;
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& payload);  // no side effects
  void doorbell();  // gpu_launch.cc: validate the registers and start a launch
  void refuse(GpuError error, const std::string& message);
  // "<what>: PROGRAM = N is not a program handle (...)", for the doorbell and the commands.
  std::string not_a_handle(const char* what, uint32_t handle) const;
  // gpu_commands.cc: the COMMAND register's commands, each ending in
  // ControlRegisters::end_command.
  void command(uint32_t value);
  void load_image();
  void select_kernel_by_index();
  void select_kernel_by_name();
  void refuse_command(GpuError error, const std::string& message);
  void set_error(const std::string& message);   // last_error_ and the ERROR_TEXT window
  void warn(const std::string& message) const;  // a SystemC warning naming this instance
  void on_rst();
  void on_finished();    // the distributor ended the launch
  void drive_outputs();  // the one writer of irq and the trace signals
  uint64_t cycles_at(sc_core::sc_time t) const;

  PlatformConfig config_;  // the SMs keep a reference to it
  sc_core::sc_time cycle_;
  DeviceMemory store_;
  ControlRegisters regs_;
  // Every timed wake-up of the children, in a fixed order (see the constructor).
  WakeupScheduler wakeups_;
  SmClock sm_clock_;  // the first rank: ticks the SMs in index order
  WorkgroupDistributor distributor_;
  sc_core::sc_vector<StreamingMultiprocessor> sms_;
  Interconnect interconnect_;
  sc_core::sc_vector<L2Slice> l2_;
  MemoryPort port_;
  std::unique_ptr<DramModel> dram_;  // made in before_end_of_elaboration when `memory` is unbound
  BoundMemory bound_memory_;
  std::unique_ptr<LtRunner> lt_;  // coding style "lt": runs the launches instead of the SMs

  std::vector<std::unique_ptr<LoadedProgram>> programs_;
  KernelMemory launch_memory_;
  KernelLaunch launch_;
  uint64_t launch_start_cycle_ = 0, last_launch_cycles_ = 0, busy_cycles_ = 0;
  uint64_t reset_cycle_ = 0;  // cycles_at() of the last reset: CYCLE counts from there
  uint64_t resets_ = 0;
  std::optional<KernelFault> fault_;
  std::string last_error_;
  bool faulted_ = false;      // sticky until a reset: a kernel fault leaves SMs in an unknown state
  std::string sticky_fault_;  // the message of the fault that set faulted_

  sc_core::sc_event launch_finished_, outputs_changed_;
  sc_core::sc_signal<bool> irq_internal_;  // irq's channel when the platform binds none
  sc_core::sc_signal<bool> rst_internal_;  // rst's channel when the platform binds none
  sc_core::sc_signal<bool> irq_level_;     // mirrors irq, for the VCD
  sc_core::sc_signal<uint32_t> status_signal_;
  sc_core::sc_signal<bool> running_signal_;
};

}  // namespace warptlm
