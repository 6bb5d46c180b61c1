// A LaunchSession on the timing model: the standalone platform of run_timing
// (a sequence HostDriver, the Gpu and its default DRAM) elaborated once, and
// every launch run on it by the driver, the simulation paused in between.
// Caches, DRAM rows and the cycle count carry over from launch to launch, as
// on a GPU; statistics count across launches (Gpu::stats()).
#pragma once

#include <memory>
#include <string>
#include <systemc>

#include "config/platform_config.h"
#include "exec/launch_session.h"
#include "gpu/gpu.h"
#include "gpu/host_driver.h"

namespace warptlm {

class TimingSession : public LaunchSession {
 public:
  // Elaborates the platform. Throws std::invalid_argument for a bad
  // configuration and std::logic_error when SystemC has already simulated in
  // this process (it elaborates once per process: one timing session per
  // process, and no run_timing beside it).
  explicit TimingSession(const PlatformConfig& config);
  ~TimingSession() override;
  uint32_t load(const Program& program) override;
  RunStats run_stats() const override { return gpu_->run_stats(); }
  nlohmann::json timing_stats() const override { return gpu_->stats(); }

 private:
  DeviceMemory& memory() override { return gpu_->default_store(); }
  void run(uint32_t handle, const std::string& entry, LaunchSpec& spec,
           const std::vector<uint64_t>& buffers, const std::vector<uint64_t>& sizes,
           TraceSink* trace) override;
  const Program* find_program(uint32_t handle) const override { return gpu_->program(handle); }

  std::unique_ptr<Gpu> gpu_;
  std::unique_ptr<HostDriver> host_;
  std::unique_ptr<sc_core::sc_signal<bool>> irq_;
};

// A functional or timing session ("functional" | "timing"; anything else is
// std::invalid_argument).
std::unique_ptr<LaunchSession> make_launch_session(const PlatformConfig& config,
                                                   const std::string& mode);

}  // namespace warptlm
