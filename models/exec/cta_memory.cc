#include "exec/cta_memory.h"

#include <cstring>

namespace warptlm {

void init_module_memory(const Module& module, KernelMemory& mem) {
  if (module.global_data_size)
    mem.globals_base = mem.global->allocate(module.global_data_size, "module .global variables");
  mem.constants.assign(module.const_data_size, 0);
  for (const Symbol& s : module.symbols) {
    if (s.init.empty()) continue;
    if (s.space == Space::Global)
      mem.global->write(mem.globals_base + s.offset, s.init.data(), s.init.size());
    else if (s.space == Space::Const)
      std::memcpy(mem.constants.data() + s.offset, s.init.data(), s.init.size());
  }
}

}  // namespace warptlm
