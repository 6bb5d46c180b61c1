#include "gpu/timing_session.h"

#include <stdexcept>

#include "exec/kernel_args.h"
#include "gpu/timing_run.h"
#include "memory/address_map.h"

namespace warptlm {

TimingSession::TimingSession(const PlatformConfig& config) {
  validate(config);
  if (sc_core::sc_get_status() != sc_core::SC_ELABORATION)
    throw std::logic_error(
        "timing session: SystemC has already simulated in this process; SystemC elaborates once "
        "per process, so start each timing session in a fresh process");
  gpu_ = std::make_unique<Gpu>("gpu", config);
  host_ = std::make_unique<HostDriver>("host");
  irq_ = std::make_unique<sc_core::sc_signal<bool>>("irq");
  gpu_->irq.bind(*irq_);
  host_->irq.bind(*irq_);
  host_->control.bind(gpu_->control);
  silence_run_reports(*gpu_);
}

TimingSession::~TimingSession() {
  // The driver's thread waits for the next launch; end the simulation before
  // the modules go.
  if (sc_core::sc_get_status() == sc_core::SC_PAUSED) sc_core::sc_stop();
}

uint32_t TimingSession::load(const Program& program) { return gpu_->load_program(program); }

void TimingSession::run(uint32_t handle, const std::string& entry, LaunchSpec& spec,
                        const std::vector<uint64_t>& buffers, const std::vector<uint64_t>& sizes,
                        TraceSink* trace) {
  const Module& module = gpu_->program(handle)->module;
  const Function& kernel =
      check_timing_launch(module, entry, spec, gpu_->config().warp_size, &sizes);
  const LaunchExtras extras = place_launch_extras(
      spec, buffers,
      [this](const uint8_t* data, uint64_t n, const char* what) { return place(data, n, what); });
  const std::vector<uint8_t> params =
      build_param_buffer(module, kernel, spec, buffers, extras.descriptors);
  uint64_t param_address = 0;
  if (!params.empty()) {
    // Where run_timing puts them: far from the buffers, so an overrun faults.
    DeviceMemory& store = gpu_->default_store();
    param_address =
        store.allocate_at(address_map::kHostParamBase, params.size(), "kernel parameters");
    placed_at(param_address);
    store.write(param_address, params.data(), params.size());
  }
  const HostLaunch hl = host_launch(handle, static_cast<uint32_t>(kernel.begin), spec,
                                    param_address, extras.workspace);
  gpu_->set_trace(trace);
  host_->submit(hl);
  sc_core::sc_start();
  gpu_->set_trace(nullptr);
  check_launch_outcome(*gpu_, *host_);
  spec.output = gpu_->console();
}

std::unique_ptr<LaunchSession> make_launch_session(const PlatformConfig& config,
                                                   const std::string& mode) {
  if (mode == "timing") return std::make_unique<TimingSession>(config);
  if (mode == "functional") {
    validate(config);
    return std::make_unique<FunctionalSession>(config.exec_config());
  }
  throw std::invalid_argument("mode must be 'functional' or 'timing', got '" + mode + "'");
}

}  // namespace warptlm
