// A host CPU for platforms: a TLM initiator whose SC_THREAD runs the C driver
// (warptlm/gpu_driver.h) over its bus socket, as a program on a platform's
// CPU would. For each job it places the kernel's PTX text and name in memory,
// LOADs it and finds the kernel by name, copies the input buffers and writes
// the parameter buffer, launches; once every job is launched it sleeps until
// each GPU's interrupt, acknowledges it and copies the buffers back. The jobs
// of different GPUs run at the same time.
//
// Memory is either system memory on the bus (a window the host allocates in,
// reached by b_transport) or a GPU's own memory (its default store, reached
// by a backdoor that takes no simulated time, as a copy engine would: the
// standalone platform).
#pragma once

#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "exec/launch.h"
#include "memory/device_memory.h"

namespace warptlm {

struct HostGpu {
  std::string name;        // for messages and statistics
  uint64_t registers = 0;  // bus address of its register window
  unsigned irq = 0;        // the host's irq input its line drives
};

struct HostJob {
  unsigned gpu = 0;  // index into HostCpuParams::gpus; one job per GPU
  std::string ptx, source, entry;
  LaunchSpec launch;  // inputs; after the run, the buffers as the kernel left them
  // The outcome.
  bool ran = false;  // launched and waited for
  int error = 0;     // WARPTLM_ERROR_* (or WARPTLM_DRIVER_NO_GPU) of the step that failed
  uint32_t status = 0;
  uint64_t cycles = 0;     // LAUNCH_CYCLES
  std::string message;     // what failed, with the GPU's ERROR_TEXT
  double launched_ns = 0;  // simulated time of the doorbell and of the interrupt
  double finished_ns = 0;
};

struct HostCpuParams {
  std::vector<HostGpu> gpus;
  // System memory on the bus: [memory_base, memory_base + memory_size).
  uint64_t memory_base = 0, memory_size = 0;
  // Or a GPU's own memory (standalone): the host allocates in it and copies
  // through this pointer; memory_size is then unused.
  DeviceMemory* local_memory = nullptr;
  bool stop_simulation = true;  // sc_stop() when every job has finished
};

class HostCpu : public sc_core::sc_module {
 public:
  HostCpu(sc_core::sc_module_name name, const HostCpuParams& params, std::vector<HostJob> jobs);

  tlm_utils::simple_initiator_socket<HostCpu> bus;
  sc_core::sc_vector<sc_core::sc_in<bool>> irq;  // one per HostGpu::irq in use

  const std::vector<HostJob>& jobs() const { return jobs_; }
  const HostCpuParams& params() const { return params_; }
  bool finished() const { return finished_; }
  nlohmann::json stats() const;

  // The C driver's bus callbacks (public for the C trampolines).
  uint32_t mmio_read(uint64_t address);
  void mmio_write(uint64_t address, uint32_t value);
  void wait_irq(unsigned line);

 private:
  void run();
  bool start(HostJob& job);   // load, copy in, launch; false when a step failed
  void finish(HostJob& job);  // wait, copy back
  uint64_t allocate(uint64_t bytes, const std::string& what);
  void copy_in(uint64_t address, const void* src, uint64_t bytes);
  void copy_out(uint64_t address, void* dst, uint64_t bytes);
  void transport(tlm::tlm_command command, uint64_t address, void* data, uint64_t bytes);

  HostCpuParams params_;
  std::vector<HostJob> jobs_;
  std::vector<std::vector<uint64_t>> buffer_addresses_;  // per job
  uint64_t next_ = 0;                                    // bump allocator over system memory
  uint64_t mmio_reads_ = 0, mmio_writes_ = 0, bytes_in_ = 0, bytes_out_ = 0;
  std::string bus_error_;  // the first failed transaction
  bool finished_ = false;
};

}  // namespace warptlm
