#include "gpu/timing_run.h"

#include <sysc/tracing/sc_tracing_ids.h>

#include <fstream>
#include <limits>
#include <memory>
#include <stdexcept>
#include <vector>

#include "exec/kernel_args.h"
#include "gpu/gpu.h"
#include "gpu/host_driver.h"
#include "gpu/timeline_sink.h"
#include "memory/address_map.h"

namespace warptlm {
namespace {

// sc_create_vcd_trace_file appends ".vcd" itself.
std::string vcd_base(const std::string& path) {
  const std::string ext = ".vcd";
  if (path.size() > ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0)
    return path.substr(0, path.size() - ext.size());
  return path;
}

}  // namespace

const Function& check_timing_launch(const Module& module, const std::string& entry,
                                    const LaunchSpec& launch, unsigned warp_size,
                                    const std::vector<uint64_t>* buffer_sizes) {
  const Function& kernel = find_kernel(module, entry);
  check_launch(module, kernel, launch, warp_size, buffer_sizes);
  if (kernel.begin > std::numeric_limits<uint32_t>::max())
    throw std::invalid_argument("launch: kernel '" + kernel.name +
                                "' starts above the 32-bit KERNEL register's reach");
  return kernel;
}

void silence_run_reports(const Gpu& gpu) {
  // sc_stop() and the VCD's timescale announce themselves on stdout; runs are silent.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);
  sc_core::sc_report_handler::set_actions(sc_core::SC_ID_TRACING_TIMESCALE_UNIT_, sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);
  // A refused launch or a fault is the caller's exception; the GPU's own
  // warning about it would say the same twice.
  sc_core::sc_report_handler::set_actions(gpu.name(), sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
}

void check_launch_outcome(const Gpu& gpu, const HostDriver& host) {
  if (!host.completed()) {
    if (!host.bus_error().empty()) throw std::runtime_error("run_timing: " + host.bus_error());
    throw std::runtime_error(
        std::string("run_timing: the simulation ran out of events before the GPU raised its "
                    "interrupt (STATUS = ") +
        gpu_status_name(gpu.registers().status()) + ")");
  }
  switch (host.status()) {
    case GpuStatus::LaunchError:
      throw std::invalid_argument(gpu.last_error());
    case GpuStatus::Fault: {
      KernelFault f = *gpu.fault();
      f.output = gpu.console();
      throw f;
    }
    case GpuStatus::Done:
      return;
    default:
      throw std::runtime_error(std::string("run_timing: interrupt with STATUS = ") +
                               gpu_status_name(host.status()));
  }
}

nlohmann::json run_timing(const Program& program, const std::string& entry, LaunchSpec& launch,
                          const PlatformConfig& config, RunStats* stats, TraceSink* trace,
                          const TimingOptions& options) {
  validate(config);
  const Module& module = program.module;
  const Function& kernel = check_timing_launch(module, entry, launch, config.warp_size);
  if (sc_core::sc_get_status() != sc_core::SC_ELABORATION)
    throw std::logic_error(
        "run_timing: SystemC has already simulated in this process; SystemC elaborates once per "
        "process, so run each timing run in a fresh process");

  Gpu gpu("gpu", config);
  std::unique_ptr<ChromeTrace> timeline;
  std::unique_ptr<TimelineSink> timeline_sink;
  if (!options.timeline_path.empty()) {
    timeline = std::make_unique<ChromeTrace>(options.timeline_max_events);
    timeline_sink = std::make_unique<TimelineSink>(module, *timeline, trace);
    gpu.set_trace(timeline_sink.get());
  } else {
    gpu.set_trace(trace);
  }
  // The host's cudaMalloc + cudaMemcpy: straight into the GPU's device
  // memory, or into the platform memory bound in its place (sized for the
  // buffers, the parameters and the globals, with room for whole lines).
  std::unique_ptr<TlmMemory> platform_memory;
  uint64_t globals_address = 0;
  if (options.tlm_memory) {
    TlmMemoryParams p = options.tlm_memory_params;
    if (p.size == 0) {
      p.size = 4096 + ((module.global_data_size + 255) & ~uint64_t(255));
      for (const HostBuffer& b : launch.buffers) p.size += (b.bytes.size() + 255) & ~uint64_t(255);
      p.size += (kernel.param_buffer_size + 255) & ~uint64_t(255);
      p.size += (launch.images.size() * kImageDescBytes + 255) & ~uint64_t(255);
      if (launch.cooperative) p.size += 256;
    }
    platform_memory = std::make_unique<TlmMemory>("memory", p);
    gpu.memory.bind(platform_memory->socket);
    if (module.global_data_size)
      globals_address =
          platform_memory->allocate(module.global_data_size, "module .global variables");
  }
  DeviceMemory& store = gpu.default_store();
  auto allocate = [&](uint64_t bytes, const std::string& name) {
    return platform_memory ? platform_memory->allocate(bytes, name) : store.allocate(bytes, name);
  };
  auto write = [&](uint64_t address, const void* src, uint64_t bytes) {
    return platform_memory ? platform_memory->write(address, src, bytes)
                           : store.write(address, src, bytes);
  };
  // Throws for missing reconvergence markers.
  const uint32_t handle = gpu.load_program(program, globals_address);

  std::vector<uint64_t> addresses;
  for (const HostBuffer& b : launch.buffers) {
    uint64_t a = allocate(b.bytes.size(), b.name);
    write(a, b.bytes.data(), b.bytes.size());
    addresses.push_back(a);
  }
  const LaunchExtras extras = place_launch_extras(
      launch, addresses, [&](const uint8_t* data, uint64_t n, const char* what) {
        const uint64_t a = allocate(n, what);
        write(a, data, n);
        return a;
      });
  const std::vector<uint8_t> params =
      build_param_buffer(module, kernel, launch, addresses, extras.descriptors);
  uint64_t param_address = 0;
  if (!params.empty()) {
    // Far from the buffers (address_map::kHostParamBase): an overrun of a
    // buffer faults as in run_functional instead of reaching the parameters.
    // (A platform memory is plain RAM: they follow the buffers there.)
    param_address = platform_memory ? platform_memory->allocate(params.size(), "kernel parameters")
                                    : store.allocate_at(address_map::kHostParamBase, params.size(),
                                                        "kernel parameters");
    write(param_address, params.data(), params.size());
  }

  HostDriver host("host", host_launch(handle, static_cast<uint32_t>(kernel.begin), launch,
                                      param_address, extras.workspace));
  sc_core::sc_signal<bool> irq("irq");
  gpu.irq.bind(irq);
  host.irq.bind(irq);
  host.control.bind(gpu.control);

  silence_run_reports(gpu);
  sc_core::sc_trace_file* vcd = nullptr;
  if (!options.vcd_path.empty()) {
    vcd = sc_core::sc_create_vcd_trace_file(vcd_base(options.vcd_path).c_str());
    vcd->set_time_unit(1, sc_core::SC_PS);
    gpu.trace_signals(vcd);
  }
  sc_core::sc_start();
  if (vcd) sc_core::sc_close_vcd_trace_file(vcd);
  if (timeline) {
    std::ofstream out(options.timeline_path);
    if (out) timeline->write(out, gpu.cycle().to_seconds() * 1e9);
    if (!out)
      throw std::runtime_error("run_timing: cannot write the timeline to '" +
                               options.timeline_path + "'");
  }

  check_launch_outcome(gpu, host);
  for (size_t i = 0; i < launch.buffers.size(); ++i)
    if (platform_memory)
      platform_memory->read(addresses[i], launch.buffers[i].bytes.data(),
                            launch.buffers[i].bytes.size());
    else
      store.read(addresses[i], launch.buffers[i].bytes.data(), launch.buffers[i].bytes.size());

  launch.output = gpu.console();
  nlohmann::json result = gpu.stats();
  if (stats) {
    *stats = gpu.run_stats();
    stats->note_program(program.module);
  }
  return result;
}

}  // namespace warptlm
