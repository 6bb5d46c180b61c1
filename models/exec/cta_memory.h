// The memories one CTA's threads reach besides global memory: shared memory,
// the kernel parameter buffer and the module's constant bank.
#pragma once

#include <cstdint>
#include <vector>

#include "frontend/ir.h"
#include "memory/device_memory.h"

namespace warptlm {

// Frame .param symbols are addressed above this tag so a param-space address
// tells the kernel parameter buffer and the current call frame apart.
constexpr uint64_t kFrameParamTag = 1ull << 31;

struct KernelMemory {
  DeviceMemory* global = nullptr;  // owned by the caller (the timing model: the DRAM's store)
  uint64_t globals_base = 0;       // module .global variables
  std::vector<uint8_t> constants;  // module .const bank
  std::vector<uint8_t> params;     // the kernel's parameter buffer
};

// Allocates and initialises `module`'s .global variables in *memory.global
// (setting globals_base) and fills the .const bank, as a module load does.
void init_module_memory(const Module& module, KernelMemory& memory);

}  // namespace warptlm
