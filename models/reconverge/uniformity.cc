#include "reconverge/uniformity.h"

#include "sm/scoreboard/register_operands.h"

namespace warptlm {
namespace {

// Special registers whose value can differ between the lanes of one warp.
bool per_lane(SpecialReg s) {
  switch (s) {
    case SpecialReg::Tid:
    case SpecialReg::Laneid:
    case SpecialReg::Clock:  // read per lane; no guarantee they agree
    case SpecialReg::Clock64:
    case SpecialReg::GlobalTimer:
    case SpecialReg::GlobalTimerLo:
    case SpecialReg::GlobalTimerHi:
    case SpecialReg::LanemaskEq:
    case SpecialReg::LanemaskLe:
    case SpecialReg::LanemaskLt:
    case SpecialReg::LanemaskGe:
    case SpecialReg::LanemaskGt:
      return true;
    default:
      return false;
  }
}

bool reads_per_lane_special(const Operand& op) {
  if (op.kind == Operand::Kind::Special) return per_lane(op.sreg);
  for (const Operand& e : op.elems)
    if (reads_per_lane_special(e)) return true;
  return false;
}

// Whether the values `in` writes differ between lanes whatever its register
// sources are.
bool writes_per_lane_values(const Instruction& in, bool in_entry) {
  if (is_warp_collective(in.op)) return true;
  switch (in.op) {
    case Opcode::Atom:  // each lane gets the value before its own update
    case Opcode::Mbarrier:
    case Opcode::Call:  // return values: the callee is not analysed
      return true;
    case Opcode::Ld:
      // A local (or generic: it may point into local memory) address names
      // each lane's own memory; a device function's .param values are its
      // per-lane arguments. Global, shared and const loads from one address
      // read one value in one instruction.
      return in.space == Space::Local || in.space == Space::Generic ||
             (in.space == Space::Param && !in_entry);
    default:
      break;
  }
  for (const Operand& op : in.ops)
    if (reads_per_lane_special(op)) return true;
  return false;
}

}  // namespace

std::vector<bool> uniform_branch_blocks(const Program& program, uint32_t function) {
  const Module& m = program.module;
  const Function& fn = m.functions.at(function);
  const FunctionCfg& cfg = program.cfgs.at(function);
  const size_t nblocks = cfg.blocks.size();
  std::vector<bool> divergent(fn.regs.size(), false);
  auto reg_divergent = [&](uint32_t r) { return r < divergent.size() && divergent[r]; };

  // Per-instruction facts that do not change: its registers and whether it
  // writes per-lane values on its own.
  std::vector<RegisterOperands> ops;
  std::vector<bool> per_lane_write;
  std::vector<uint32_t> block_of;
  for (uint32_t b = 0; b < nblocks; ++b)
    for (Pc pc = cfg.blocks[b].begin; pc < cfg.blocks[b].end; pc += kInstrBytes) {
      const Instruction& in = m.at(pc);
      ops.push_back(register_operands(in));
      per_lane_write.push_back(writes_per_lane_values(in, fn.is_entry));
      block_of.push_back(b);
    }
  auto branch_of = [&](uint32_t b) -> const Instruction* {
    const Instruction& last = m.at(cfg.blocks[b].end - kInstrBytes);
    return last.op == Opcode::Bra && last.has_guard && !last.uni ? &last : nullptr;
  };

  std::vector<bool> in_region(nblocks, false);
  for (bool changed = true; changed;) {
    changed = false;
    // The regions of the branches found divergent so far: the blocks their
    // lanes may reach apart, before their immediate post-dominator.
    std::vector<uint32_t> work;
    for (uint32_t b = 0; b < nblocks; ++b) {
      const Instruction* br = branch_of(b);
      if (!br || !reg_divergent(br->guard_reg)) continue;
      const int32_t stop = cfg.ipdom[b];
      std::vector<bool> seen(nblocks, false);
      work.assign(cfg.blocks[b].succs.begin(), cfg.blocks[b].succs.end());
      while (!work.empty()) {
        const uint32_t x = work.back();
        work.pop_back();
        if (static_cast<int32_t>(x) == stop || seen[x]) continue;
        seen[x] = true;
        in_region[x] = true;
        for (uint32_t s : cfg.blocks[x].succs) work.push_back(s);
      }
    }
    size_t i = 0;
    for (uint32_t b = 0; b < nblocks; ++b)
      for (Pc pc = cfg.blocks[b].begin; pc < cfg.blocks[b].end; pc += kInstrBytes, ++i) {
        const RegisterOperands& o = ops[i];
        if (o.n_writes == 0) continue;
        bool div = per_lane_write[i] || in_region[block_of[i]];
        for (unsigned k = 0; k < o.n_reads && !div; ++k) div = reg_divergent(o.reads()[k]);
        if (!div) continue;
        for (unsigned k = 0; k < o.n_writes; ++k) {
          const uint32_t r = o.writes()[k];
          if (r < divergent.size() && !divergent[r]) {
            divergent[r] = true;
            changed = true;
          }
        }
      }
  }
  std::vector<bool> uniform(nblocks, false);
  for (uint32_t b = 0; b < nblocks; ++b) {
    const Instruction* br = branch_of(b);
    uniform[b] = br && !reg_divergent(br->guard_reg);
  }
  return uniform;
}

}  // namespace warptlm
