// warptlm's public entry point for a SystemC platform (an installed package:
// find_package(warptlm) or pkg-config warptlm; docs/installing.md). One
// include gives everything needed to build a GPU into a virtual prototype:
//
//   warptlm::PlatformConfig config = warptlm::preset("fermi");   // or
//   warptlm::PlatformConfig config = warptlm::load_config_file("gpu.yaml");
//   warptlm::Gpu gpu("gpu", config);      // control target, memory initiator, irq
//   uint32_t handle = gpu.load_program(
//       warptlm::finalize(warptlm::parse_ptx_file("kernel.ptx")));
//
// Each Gpu keeps its own configuration and state; a simulation may hold
// several.
#pragma once

#include "config/config_file.h"              // load_config_file, config_from_json
#include "config/platform_config.h"          // PlatformConfig, preset(), fields, validation
#include "config/plugins.h"                  // load_plugin(): components from shared libraries
#include "config/version.h"                  // warptlm::version()
#include "exec/functional_executor.h"        // run_functional(): the reference executor
#include "frontend/program.h"                // finalize(): a parsed module made runnable
#include "frontend/ptx_parser.h"             // parse_ptx(), parse_ptx_file()
#include "gpu/control_registers.h"           // the register map (docs/gpu-registers.md)
#include "gpu/gpu.h"                         // Gpu: the SystemC/TLM-2.0 top module
#include "gpu/host_driver.h"                 // HostDriver: a minimal host that launches one kernel
#include "host/host_cpu.h"                   // HostCpu: a host CPU running the C driver
#include "interconnect/address_router.h"     // AddressRouter: a bus decoding address windows
#include "interconnect/bus_width_adapter.h"  // BusWidthAdapter: the GPU on a 64-bit bus
#include "memory/tlm/tlm_memory.h"           // TlmMemory: a plain loosely-timed RAM with DMI
#include "platform/platform_top.h"  // platforms from YAML/JSON: load_platform, run_platform
#include "warptlm_version.h"        // WARPTLM_VERSION_STRING
