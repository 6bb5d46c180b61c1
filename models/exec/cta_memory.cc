#include "exec/cta_memory.h"

#include <cstring>

namespace warptlm {

std::vector<uint8_t> module_constant_bank(const Module& module) {
  std::vector<uint8_t> bank(module.const_data_size, 0);
  for (const Symbol& s : module.symbols)
    if (s.space == Space::Const && !s.init.empty())
      std::memcpy(bank.data() + s.offset, s.init.data(), s.init.size());
  return bank;
}

bool write_module_globals(const Module& module, GlobalMemory& global, uint64_t base) {
  bool ok = true;
  for (const Symbol& s : module.symbols)
    if (s.space == Space::Global && !s.init.empty())
      ok = global.write(base + s.offset, s.init.data(), s.init.size()) && ok;
  return ok;
}

bool init_module_memory(const Module& module, KernelMemory& mem) {
  mem.constants = module_constant_bank(module);
  return write_module_globals(module, *mem.global, mem.globals_base);
}

}  // namespace warptlm
