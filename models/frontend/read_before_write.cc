#include "frontend/read_before_write.h"

#include "frontend/cfg.h"
#include "frontend/operand_registers.h"

namespace warptlm {

namespace {

// Registers live (read before written) at an instruction, one bit each.
using Live = std::vector<bool>;

// Live before `in`, given live after it. `masked`: every instruction may
// run with lanes masked off, so no write is certain.
void step_back(const Instruction& in, bool masked, Live& live) {
  if (!in.has_guard && !masked) each_register_written(in, [&](uint32_t r) { live[r] = false; });
  each_register_read(in, [&](uint32_t r) { live[r] = true; });
  if (in.has_guard) live[in.guard_reg] = true;
}

}  // namespace

std::vector<bool> registers_read_before_written(const Module& module, uint32_t function) {
  const Function& f = module.functions[function];
  const size_t regs = f.regs.size();
  Live result(regs, false);
  if (f.begin == f.end) return result;
  // Code the exec-mask lowering wrote runs both sides of a branch with the
  // lanes of the other side masked off: a write there is not a write for
  // every lane that goes on.
  bool masked = false;
  for (Pc pc = f.begin; pc < f.end; pc += kInstrBytes) {
    const Instruction& in = module.at(pc);
    masked |= in.lowered || in.op == Opcode::EmaskDefer || in.op == Opcode::EmaskBranchz ||
              in.op == Opcode::EmaskJoin;
  }
  const FunctionCfg cfg = build_cfg(module, function);
  const size_t n = cfg.blocks.size();
  std::vector<Live> live_in(n, Live(regs, false));
  // Backward data flow to a fixed point, blocks in reverse order.
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t b = n; b-- > 0;) {
      const BasicBlock& block = cfg.blocks[b];
      Live live(regs, false);
      for (uint32_t s : block.succs)
        for (size_t r = 0; r < regs; ++r)
          if (live_in[s][r]) live[r] = true;
      for (Pc pc = block.end; pc > block.begin;) {
        pc -= kInstrBytes;
        step_back(module.at(pc), masked, live);
      }
      if (live != live_in[b]) {
        live_in[b] = std::move(live);
        changed = true;
      }
    }
  }
  result = live_in[0];
  for (Pc pc = f.begin; pc < f.end; pc += kInstrBytes) {
    const Instruction& in = module.at(pc);
    if (is_warp_collective(in.op)) each_register_read(in, [&](uint32_t r) { result[r] = true; });
  }
  return result;
}

}  // namespace warptlm
