#include "frontend/uniformity.h"

#include <algorithm>

#include "frontend/cfg.h"
#include "frontend/operand_registers.h"

namespace warptlm {
namespace {

// Special registers that differ between the threads of a CTA, or between
// runs of the same instance (the clocks).
bool varying_special(SpecialReg s) {
  switch (s) {
    case SpecialReg::Tid:
    case SpecialReg::Laneid:
    case SpecialReg::Warpid:
    case SpecialReg::Clock:
    case SpecialReg::Clock64:
    case SpecialReg::LanemaskEq:
    case SpecialReg::LanemaskLe:
    case SpecialReg::LanemaskLt:
    case SpecialReg::LanemaskGe:
    case SpecialReg::LanemaskGt:
    case SpecialReg::GlobalTimer:
    case SpecialReg::GlobalTimerLo:
    case SpecialReg::GlobalTimerHi:
      return true;
    default:  // the CTA's and the grid's geometry, the SM it runs on, sizes
      return false;
  }
}

class FunctionUniformity {
 public:
  FunctionUniformity(const Module& m, const FunctionCfg& cfg)
      : m_(m), cfg_(cfg), fn_(m.functions[cfg.function]), varying_(fn_.regs.size(), false) {}

  void run(std::vector<bool>& out) {
    compute_live_in();
    for (bool changed = true; changed;) {
      changed = false;
      for (Pc pc = fn_.begin; pc < fn_.end; pc += kInstrBytes) {
        const Instruction& in = m_.at(pc);
        if (result_varies(in)) changed |= mark_destinations(in);
      }
      // Sync dependence: a register written between a varying branch and
      // its reconvergence point holds there what different threads computed
      // on different paths or in different iterations. Before it, the
      // threads of one stack entry ran the same path together.
      for (uint32_t b = 0; b < cfg_.blocks.size(); ++b) {
        const Instruction& last = m_.at(cfg_.blocks[b].end - kInstrBytes);
        if (last.op == Opcode::Bra && last.has_guard && varying_[last.guard_reg])
          changed |= mark_region(b);
      }
    }
    for (Pc pc = fn_.begin; pc < fn_.end; pc += kInstrBytes) {
      const Instruction& in = m_.at(pc);
      if (in.op == Opcode::Bra && in.has_guard && !varying_[in.guard_reg])
        out[pc / kInstrBytes] = true;
    }
  }

 private:
  bool kernel_parameter(const Operand& address) const {
    if (address.kind != Operand::Kind::Address || address.has_reg || !address.has_symbol)
      return false;
    return std::find(fn_.params.begin(), fn_.params.end(), address.symbol) != fn_.params.end();
  }

  // Whether what `in` writes may differ between the CTA's threads.
  bool result_varies(const Instruction& in) const {
    if (in.has_guard && varying_[in.guard_reg]) return true;
    if (in.carry_in) return true;  // the carry flag is not tracked
    if (is_warp_collective(in.op)) return true;
    switch (in.op) {
      case Opcode::Ld:
        // A kernel's parameters and the constant bank are the same for every
        // thread; other memory may be written by some threads between the
        // others' loads.
        if (in.space == Space::Param && fn_.is_entry && kernel_parameter(in.ops.back())) break;
        if (in.space == Space::Const) break;
        return true;
      case Opcode::Atom:
      case Opcode::Mbarrier:
      case Opcode::Call:
      case Opcode::Tex:
      case Opcode::Tld4:
      case Opcode::Txq:
      case Opcode::Suld:
      case Opcode::Suq:
      case Opcode::Bar:  // bar.red
        return true;
      default:
        break;
    }
    const size_t dests = destination_count(in);
    bool varies = false;
    for (size_t i = 0; i < in.ops.size(); ++i) {
      const Operand& op = in.ops[i];
      if (i < dests && op.kind != Operand::Kind::Address) continue;
      if (op.kind == Operand::Kind::Special && varying_special(op.sreg)) varies = true;
      each_register(op, [&](uint32_t r) { varies |= varying_[r]; });
    }
    return varies;
  }

  bool mark_destinations(const Instruction& in) {
    bool changed = false;
    each_register_written(in, [&](uint32_t r) {
      changed |= !varying_[r];
      varying_[r] = true;
    });
    return changed;
  }

  // Marks the registers that the blocks between branch block `b` and its
  // immediate post-dominator write and that are live where the paths meet.
  bool mark_region(uint32_t b) {
    const int32_t stop = cfg_.ipdom[b];
    if (stop < 0) return false;  // the paths meet only at the exit: nothing is read there
    const size_t join = static_cast<size_t>(stop);
    std::vector<bool> seen(cfg_.blocks.size(), false);
    std::vector<uint32_t> work(cfg_.blocks[b].succs);
    bool changed = false;
    while (!work.empty()) {
      const uint32_t x = work.back();
      work.pop_back();
      if (static_cast<int32_t>(x) == stop || seen[x]) continue;
      seen[x] = true;
      for (Pc pc = cfg_.blocks[x].begin; pc < cfg_.blocks[x].end; pc += kInstrBytes) {
        const Instruction& in = m_.at(pc);
        const size_t dests = destination_count(in);
        for (size_t i = 0; i < dests; ++i) {
          if (in.ops[i].kind == Operand::Kind::Address) continue;
          each_register(in.ops[i], [&](uint32_t r) {
            if (varying_[r] || !live_in(join, r)) return;
            varying_[r] = true;
            changed = true;
          });
        }
      }
      for (uint32_t s : cfg_.blocks[x].succs) work.push_back(s);
    }
    return changed;
  }

  // Backward liveness over the blocks: the registers each block reads
  // before writing them (a guarded write keeps the old value live).
  void compute_live_in() {
    const size_t nb = cfg_.blocks.size(), words = (fn_.regs.size() + 63) / 64;
    std::vector<std::vector<uint64_t>> use(nb, std::vector<uint64_t>(words, 0)), def = use;
    auto bit = [](std::vector<uint64_t>& set, uint32_t r) -> uint64_t& { return set[r / 64]; };
    for (size_t b = 0; b < nb; ++b)
      for (Pc pc = cfg_.blocks[b].begin; pc < cfg_.blocks[b].end; pc += kInstrBytes) {
        const Instruction& in = m_.at(pc);
        const size_t dests = destination_count(in);
        auto read = [&](uint32_t r) {
          const uint64_t m = uint64_t(1) << (r % 64);
          if (!(bit(def[b], r) & m)) bit(use[b], r) |= m;
        };
        if (in.has_guard) read(in.guard_reg);
        for (size_t i = 0; i < in.ops.size(); ++i)
          if (i >= dests || in.ops[i].kind == Operand::Kind::Address)
            each_register(in.ops[i], read);
        if (!in.has_guard)
          for (size_t i = 0; i < dests; ++i)
            if (in.ops[i].kind != Operand::Kind::Address)
              each_register(in.ops[i],
                            [&](uint32_t r) { bit(def[b], r) |= uint64_t(1) << (r % 64); });
      }
    live_words_ = use;
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t b = nb; b-- > 0;)
        for (uint32_t s : cfg_.blocks[b].succs)
          for (size_t w = 0; w < words; ++w) {
            const uint64_t add = live_words_[s][w] & ~def[b][w] & ~live_words_[b][w];
            if (!add) continue;
            live_words_[b][w] |= add;
            changed = true;
          }
    }
  }

  bool live_in(size_t block, uint32_t r) const {
    return (live_words_[block][r / 64] >> (r % 64)) & 1;
  }

  const Module& m_;
  const FunctionCfg& cfg_;
  const Function& fn_;
  std::vector<bool> varying_;                      // per register of the function
  std::vector<std::vector<uint64_t>> live_words_;  // per block: live-in registers, 64 a word
};

}  // namespace

std::vector<bool> cta_uniform_branches(const Module& module, const std::vector<FunctionCfg>& cfgs) {
  std::vector<bool> out(module.code.size(), false);
  for (const FunctionCfg& cfg : cfgs) {
    if (cfg.blocks.empty()) continue;  // a runtime function: no body
    FunctionUniformity(module, cfg).run(out);
  }
  return out;
}

}  // namespace warptlm
