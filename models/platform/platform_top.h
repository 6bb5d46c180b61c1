// A platform elaborated from its description (platform_description.h): an
// sc_module whose children are the described modules under their names
// (soc.host, soc.bus, soc.ram, soc.gpu0), bound as described, the host
// running one job per GPU through the C driver. run_platform() simulates it.
#pragma once

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <systemc>
#include <vector>

#include "gpu/gpu.h"
#include "host/host_cpu.h"
#include "interconnect/address_router.h"
#include "memory/tlm/tlm_memory.h"
#include "platform/platform_description.h"

namespace warptlm {

// What the host runs on one GPU.
struct PlatformJob {
  std::string gpu;  // a gpu module's name
  std::string ptx, source, entry;
  LaunchSpec launch;
};

class PlatformTop : public sc_core::sc_module {
 public:
  // Throws std::invalid_argument for a job on a GPU the host does not drive
  // (no interrupt to the host, or registers it cannot reach), or a host
  // memory it cannot reach.
  PlatformTop(sc_core::sc_module_name name, const PlatformDescription& description,
              std::vector<PlatformJob> jobs);

  const PlatformDescription& description() const { return description_; }
  HostCpu& host() { return *host_; }
  const HostCpu& host() const { return *host_; }
  Gpu& gpu(const std::string& name) { return *gpus_.at(name); }
  // The module of each kind by its name in the description; nullptr when there is none.
  const Gpu* find_gpu(const std::string& name) const;
  const TlmMemory* find_memory(const std::string& name) const;
  const AddressRouter* find_router(const std::string& name) const;
  // Every module's statistics by module name.
  nlohmann::json stats() const;

 private:
  using TargetSocket =
      tlm::tlm_base_target_socket_b<32, tlm::tlm_fw_transport_if<>, tlm::tlm_bw_transport_if<>>;
  TargetSocket& target(const PlatformEndpoint& e);
  HostCpuParams host_params(std::vector<PlatformJob>& jobs, std::vector<HostJob>& host_jobs);

  PlatformDescription description_;
  std::map<std::string, std::unique_ptr<TlmMemory>> memories_;
  std::map<std::string, std::unique_ptr<AddressRouter>> routers_;
  std::map<std::string, std::unique_ptr<Gpu>> gpus_;
  std::unique_ptr<HostCpu> host_;
  std::vector<std::unique_ptr<sc_core::sc_signal<bool>>> irqs_;
};

struct PlatformRunResult {
  std::vector<HostJob> jobs;  // in the order given, with their outcomes
  nlohmann::json stats;       // PlatformTop::stats()
  double simulated_ns = 0;
  std::vector<std::string> timelines;  // the files written
};

// What run_platform writes besides its result.
struct PlatformOutputs {
  std::string vcd_path;  // the GPUs' top-level signals, one VCD
  // A warp timeline per GPU (Chrome trace-event JSON for Perfetto): this path
  // for a platform with one GPU; with several, GPU g's goes to the path with
  // ".g" before its extension (t.json -> t.gpu0.json), each in its own cycles.
  std::string timeline_path;
  uint64_t timeline_max_events = 5'000'000;  // per GPU; beyond, dropped and counted in the file
};

// Before elaborating a platform: throws std::logic_error naming `what` when
// SystemC has already simulated in this process (it elaborates once per
// process), and silences SystemC's own info reports (sc_stop announces itself).
void prepare_platform_process(const char* what);

// The timeline file of GPU `gpu` (PlatformOutputs::timeline_path's rule).
std::string timeline_path_of(const std::string& path, const std::string& gpu, size_t gpus);

// Elaborates and simulates; SystemC elaborates once per process (call it once
// per process, as run_timing).
PlatformRunResult run_platform(const PlatformDescription& description,
                               std::vector<PlatformJob> jobs, const PlatformOutputs& outputs = {});

}  // namespace warptlm
