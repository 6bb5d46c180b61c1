// The memories one CTA's threads reach besides global memory: shared memory,
// the kernel parameter buffer and the module's constant bank.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frontend/ir.h"
#include "memory/global_memory.h"

namespace warptlm {

// Frame .param symbols are addressed above this tag so a param-space address
// tells the kernel parameter buffer and the current call frame apart.
constexpr uint64_t kFrameParamTag = 1ull << 31;

struct KernelMemory {
  GlobalMemory* global = nullptr;  // owned by the caller: a DeviceMemory, or the bound memory
  uint64_t globals_base = 0;       // module .global variables
  std::vector<uint8_t> constants;  // module .const bank
  std::vector<uint8_t> params;     // the kernel's parameter buffer
  // What the launch's printf calls wrote, in issue order (the lanes of one
  // call in lane order): the runtime's printf buffer, read after the launch.
  std::string console;
};

// Writes the initial values of `module`'s .global variables at
// memory.globals_base in *memory.global (the caller placed them there:
// module.global_data_size bytes) and fills the .const bank, as a module load
// does. Returns false when the global memory refused a write.
bool init_module_memory(const Module& module, KernelMemory& memory);
// The two halves of it: the .const bank, and the .global initial values
// written at `base` in `global` (false when a write is refused).
std::vector<uint8_t> module_constant_bank(const Module& module);
bool write_module_globals(const Module& module, GlobalMemory& global, uint64_t base);

}  // namespace warptlm
