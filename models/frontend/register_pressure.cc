#include "frontend/register_pressure.h"

#include <algorithm>
#include <vector>

#include "frontend/cfg.h"
#include "frontend/operand_registers.h"

namespace warptlm {

namespace {

// One bit per register of a function.
class RegSet {
 public:
  explicit RegSet(size_t n = 0) : words_((n + 63) / 64, 0) {}
  void set(uint32_t r) { words_[r / 64] |= uint64_t(1) << (r % 64); }
  void reset(uint32_t r) { words_[r / 64] &= ~(uint64_t(1) << (r % 64)); }
  bool operator==(const RegSet& o) const { return words_ == o.words_; }
  RegSet& operator|=(const RegSet& o) {
    for (size_t i = 0; i < words_.size(); ++i) words_[i] |= o.words_[i];
    return *this;
  }
  // The sum of weight[r] over the set's registers.
  unsigned weight(const std::vector<uint8_t>& weight) const {
    unsigned total = 0;
    for (size_t w = 0; w < words_.size(); ++w)
      for (uint64_t bits = words_[w]; bits; bits &= bits - 1)
        total += weight[w * 64 + unsigned(__builtin_ctzll(bits))];
    return total;
  }

 private:
  std::vector<uint64_t> words_;
};

class Pressure {
 public:
  explicit Pressure(const Module& m) : m_(m), memo_(m.functions.size(), -1) {}

  unsigned of(uint32_t function) {
    if (memo_[function] >= 0) return static_cast<unsigned>(memo_[function]);
    memo_[function] = 0;  // a recursive call sees 0 while this one is computed
    const unsigned p = compute(function);
    memo_[function] = static_cast<int>(p);
    return p;
  }

 private:
  // Which operands of `in` it writes: the destinations of a write that is
  // not guarded end the life of the registers before it.
  static void transfer(const Instruction& in, RegSet* live) {
    if (!in.has_guard) each_register_written(in, [&](uint32_t r) { live->reset(r); });
    each_register_read(in, [&](uint32_t r) { live->set(r); });
  }

  unsigned compute(uint32_t function) {
    const Function& f = m_.functions[function];
    if (f.begin == f.end) return 0;
    std::vector<uint8_t> weight(f.regs.size());
    for (size_t r = 0; r < f.regs.size(); ++r)
      weight[r] = static_cast<uint8_t>(register_units(f.regs[r].type));
    const FunctionCfg cfg = build_cfg(m_, function);
    const size_t n = cfg.blocks.size();
    std::vector<RegSet> live_in(n, RegSet(f.regs.size()));
    // Backward data flow to a fixed point, blocks in reverse order.
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t b = n; b-- > 0;) {
        RegSet live = out_of(cfg, live_in, b, f.regs.size());
        const BasicBlock& block = cfg.blocks[b];
        for (Pc pc = block.end; pc > block.begin;) {
          pc -= kInstrBytes;
          transfer(m_.at(pc), &live);
        }
        if (!(live == live_in[b])) {
          live_in[b] = std::move(live);
          changed = true;
        }
      }
    }
    // The peak: live after each instruction (and before the first), plus a
    // callee's peak on top of what lives across its call.
    unsigned peak = 0;
    for (size_t b = 0; b < n; ++b) {
      RegSet live = out_of(cfg, live_in, b, f.regs.size());
      const BasicBlock& block = cfg.blocks[b];
      for (Pc pc = block.end; pc > block.begin;) {
        pc -= kInstrBytes;
        const Instruction& in = m_.at(pc);
        unsigned here = live.weight(weight);
        if (in.op == Opcode::Call && in.ops.size() > 1 && in.ops[1].kind == Operand::Kind::Reg) {
          unsigned callee = 0;  // an indirect call: the hungriest function it may reach
          for (uint32_t g : m_.address_taken) callee = std::max(callee, of(g));
          here += callee;
        } else if (in.op == Opcode::Call) {
          for (const Operand& op : in.ops)
            if (op.kind == Operand::Kind::Function) here += of(op.func);
        }
        peak = std::max(peak, here);
        transfer(in, &live);
      }
      peak = std::max(peak, live.weight(weight));
    }
    return peak;
  }

  static RegSet out_of(const FunctionCfg& cfg, const std::vector<RegSet>& live_in, size_t b,
                       size_t regs) {
    RegSet out(regs);
    for (uint32_t s : cfg.blocks[b].succs) out |= live_in[s];
    return out;
  }

  const Module& m_;
  std::vector<int> memo_;
};

}  // namespace

unsigned register_pressure(const Module& module, uint32_t function) {
  return Pressure(module).of(function);
}

}  // namespace warptlm
