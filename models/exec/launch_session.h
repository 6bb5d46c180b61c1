// A device context that outlives one launch, as a CUDA context does:
// programs loaded once, buffers that stay in device memory between launches,
// statistics that count across launches, and one elaboration of the timing
// model for all of them. FunctionalSession runs launches in the functional
// executor; TimingSession (gpu/timing_session.h) on one elaborated Gpu, and
// make_launch_session there makes either. docs/launch-sessions.md.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "exec/functional_executor.h"
#include "exec/launch.h"
#include "exec/run_stats.h"
#include "exec/trace.h"
#include "frontend/program.h"
#include "memory/device_memory.h"

namespace warptlm {

// Every statistic of a run: the RunStats counts, then the timing model's
// statistics (a JSON object, or nothing in functional mode) on top.
nlohmann::json all_statistics(const RunStats& run, nlohmann::json timing);

class LaunchSession {
 public:
  virtual ~LaunchSession() = default;

  // cuModuleLoad: the program's .global variables are placed and initialised
  // once and keep their values from launch to launch. Returns its handle
  // (1, 2, ...). Throws std::invalid_argument when the configured
  // reconvergence scheme needs markers the program lacks.
  virtual uint32_t load(const Program& program) = 0;
  const Program& program(uint32_t handle) const;  // throws std::invalid_argument

  // cudaMalloc: `bytes` zeroed bytes named `name` (fault messages name it).
  uint64_t allocate(uint64_t bytes, const std::string& name);
  // cudaFree; std::invalid_argument when no allocation starts at `address`.
  void release(uint64_t address);
  // cudaMemcpy: std::invalid_argument unless the range lies inside one allocation.
  void write(uint64_t address, const void* data, uint64_t bytes);
  void read(uint64_t address, void* data, uint64_t bytes) const;

  // One launch of kernel `entry` of program `handle`. The buffers of `spec`
  // start at the device addresses `buffers` (spec.buffers name them; their
  // bytes are not used, nothing is copied): an allocation's start, or a
  // pointer into one (a buffer to its end). The launch's own parameters, texture
  // descriptors and grid workspace are placed for it and freed after it.
  // Throws std::invalid_argument for a bad launch (the session stays usable)
  // and KernelFault for a fault: after one the session refuses every further
  // launch, as a CUDA context does after a kernel fault.
  void launch(uint32_t handle, const std::string& entry, LaunchSpec& spec,
              const std::vector<uint64_t>& buffers, TraceSink* trace = nullptr);
  uint64_t launches() const { return launches_; }  // launches that ran (faulted included)

  // Counts over every launch of the session, as run_functional reports them.
  virtual RunStats run_stats() const = 0;
  // The timing model's statistics (Gpu::stats(): counters over the session,
  // "cycles" the last launch's); empty in functional mode.
  virtual nlohmann::json timing_stats() const { return nlohmann::json::object(); }
  // all_statistics() of the two above.
  nlohmann::json statistics() const { return all_statistics(run_stats(), timing_stats()); }

 protected:
  virtual DeviceMemory& memory() = 0;
  const DeviceMemory& memory() const { return const_cast<LaunchSession*>(this)->memory(); }
  // Runs one checked launch; `sizes` are the buffers' sizes.
  virtual void run(uint32_t handle, const std::string& entry, LaunchSpec& spec,
                   const std::vector<uint64_t>& buffers, const std::vector<uint64_t>& sizes,
                   TraceSink* trace) = 0;
  virtual const Program* find_program(uint32_t handle) const = 0;
  // For run(): a launch's own allocations (parameters, descriptors, grid
  // workspace), freed when the launch ends. place() allocates `bytes` named
  // `what`, copies `data` there and returns the address (a PlaceFn);
  // placed_at() records an allocation made at a chosen address.
  uint64_t place(const uint8_t* data, uint64_t bytes, const char* what);
  void placed_at(uint64_t address) { placed_.push_back(address); }

 private:
  std::vector<uint64_t> placed_;
  uint64_t launches_ = 0;
  std::string fault_;  // the fault that ended the session's usefulness, if any
};

class FunctionalSession : public LaunchSession {
 public:
  // Throws std::invalid_argument for a bad configuration.
  explicit FunctionalSession(const ExecConfig& config);
  uint32_t load(const Program& program) override;
  RunStats run_stats() const override { return total_; }

 private:
  struct Loaded {
    Program program;
    KernelMemory memory;  // global, globals_base and constants set at load
  };
  DeviceMemory& memory() override { return global_; }
  void run(uint32_t handle, const std::string& entry, LaunchSpec& spec,
           const std::vector<uint64_t>& buffers, const std::vector<uint64_t>& sizes,
           TraceSink* trace) override;
  const Program* find_program(uint32_t handle) const override;

  ExecConfig config_;
  DeviceMemory global_;
  std::vector<std::unique_ptr<Loaded>> programs_;
  RunStats total_;
};

}  // namespace warptlm
