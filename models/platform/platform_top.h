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
};

// Elaborates and simulates; SystemC elaborates once per process (call it once
// per process, as run_timing). `vcd_path`: the GPUs' top-level signals.
PlatformRunResult run_platform(const PlatformDescription& description,
                               std::vector<PlatformJob> jobs, const std::string& vcd_path = "");

}  // namespace warptlm
