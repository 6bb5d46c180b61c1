#include "reconverge/exec_mask_lowering.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string>

#include "frontend/cfg.h"
#include "reconverge/function_reconvergence.h"
#include "reconverge/wave_execution.h"

namespace warptlm {

namespace {

constexpr uint32_t kNoBlock = ~uint32_t(0);

bool has_label(const Operand& op) {
  if (op.kind == Operand::Kind::Label) return true;
  return std::any_of(op.elems.begin(), op.elems.end(), has_label);
}

Operand imm(uint64_t v) {
  Operand o;
  o.kind = Operand::Kind::Imm;
  o.imm = v;
  return o;
}

Operand reg(uint32_t r, Type t) {
  Operand o;
  o.kind = Operand::Kind::Reg;
  o.reg = r;
  o.reg_type = t;
  return o;
}

// One function's lowered code, its blocks' starts and the labels to fix.
class FunctionLowering {
 public:
  FunctionLowering(const Program& program, uint32_t function, Function& out_fn)
      : program_(program), m_(program.module), fi_(function), fn_(out_fn) {}

  std::vector<Instruction> run(size_t& inserted, size_t& flows) {
    const FunctionReconvergence r = reconverge_function(program_, fi_);
    const ReconvergingCfg& c = r.cfg;
    flows += c.flow_blocks();
    const std::vector<int32_t> primary = primary_successors(c);
    const uint32_t n = static_cast<uint32_t>(program_.cfgs[fi_].blocks.size());  // exit: n
    // Blocks the entry cannot reach are left out (nothing runs them).
    const std::vector<bool> live = reachable_blocks(c);
    // Re-join masks: one per block that is a divergent block's primary.
    std::vector<int64_t> mask_of(c.blocks.size(), -1);
    int64_t masks = 0;
    for (uint32_t b = 0; b < c.blocks.size(); ++b) {
      if (!live[b] || !c.blocks[b].divergent) continue;
      if (primary[b] < 0)
        throw std::logic_error("exec-mask lowering: " + c.blocks[b].name +
                               " has no post-dominating successor");
      if (mask_of[primary[b]] < 0) mask_of[primary[b]] = masks++;
    }
    if (c.flow_blocks()) {
      intent_ = static_cast<uint32_t>(fn_.regs.size());
      fn_.regs.push_back({"%emask.intent", Type::U32});
      route_ = static_cast<uint32_t>(fn_.regs.size());
      fn_.regs.push_back({"%emask.route", Type::Pred});
    }
    // Layout: the function's blocks in pc order, the flow blocks, the exit.
    std::vector<uint32_t> layout(n);
    std::iota(layout.begin(), layout.end(), 0u);
    for (uint32_t b = static_cast<uint32_t>(c.original_blocks); b < c.blocks.size(); ++b)
      layout.push_back(b);
    layout.push_back(n);
    start_.assign(c.blocks.size(), 0);
    for (size_t k = 0; k < layout.size(); ++k) {
      const uint32_t b = layout[k];
      next_ = k + 1 < layout.size() ? layout[k + 1] : kNoBlock;
      start_[b] = code_.size();
      if (!live[b]) continue;
      starts_.emplace_back(c.blocks[b].name, code_.size());
      loc_ = b < n ? m_.at(r.begin[b]).loc : fn_.loc;
      if (mask_of[b] >= 0)
        emit(Opcode::EmaskJoin, "emask.join " + std::to_string(mask_of[b]),
             {imm(static_cast<uint64_t>(mask_of[b]))});
      if (b < n)
        original_block(r, b, mask_of, primary);
      else if (b == n)
        emit(Opcode::Ret, "ret", {});
      else
        flow_block(c, b, mask_of, primary);
    }
    for (const Fix& f : fixes_)
      code_[f.instr].ops[f.op].target = start_[f.block];  // indexes for now
    inserted += inserted_;
    return std::move(code_);
  }

  // Each laid-out block's name in the reconverging CFG and its first
  // instruction (index), in layout order.
  const std::vector<std::pair<std::string, size_t>>& block_starts() const { return starts_; }

  // Where the original instruction at `pc` landed (index), for labels.
  size_t index_of(Pc pc) const {
    const int32_t b = block_containing(program_.cfgs[fi_], pc);
    if (b < 0) return start_.back();  // the function's end: its exit block
    if (pc == program_.cfgs[fi_].blocks[static_cast<size_t>(b)].begin) return start_[b];
    const auto it = copied_.find(pc);
    return it != copied_.end() ? it->second : start_[b];
  }

 private:
  struct Fix {
    size_t instr, op;
    uint32_t block;
  };

  Instruction& emit(Opcode op, const std::string& text, std::vector<Operand> ops) {
    Instruction in;
    in.op = op;
    in.lowered = true;
    in.function = fi_;
    in.loc = loc_;
    in.text = text;
    in.ops = std::move(ops);
    code_.push_back(std::move(in));
    ++inserted_;
    return code_.back();
  }
  void guard(Instruction& in, uint32_t reg, bool negated) {
    in.has_guard = true;
    in.guard_reg = reg;
    in.guard_negated = negated;
    in.text = std::string("@") + (negated ? "!" : "") + fn_.regs[reg].name + " " + in.text;
  }
  // A jump to `block`, left out when it comes next.
  void jump(uint32_t block, const std::string& name) {
    if (block == next_) return;
    Instruction& in = emit(Opcode::Bra, "bra.uni " + name, {Operand{}});
    in.ops[0].kind = Operand::Kind::Label;
    in.uni = true;
    fixes_.push_back({code_.size() - 1, 0, block});
  }
  void branchz(uint32_t block, const std::string& name) {
    emit(Opcode::EmaskBranchz, "emask.branchz " + name, {Operand{}});
    code_.back().ops[0].kind = Operand::Kind::Label;
    fixes_.push_back({code_.size() - 1, 0, block});
  }
  // The end of a divergent block: the lanes for its primary `p` (those whose
  // `cond` holds) wait in p's mask; the others go on to `s`.
  void divergent_end(const ReconvergingCfg& c, uint32_t p, uint32_t s, uint32_t cond, bool negated,
                     const std::vector<int64_t>& mask_of) {
    Instruction& d = emit(Opcode::EmaskDefer, "emask.defer " + std::to_string(mask_of[p]),
                          {imm(static_cast<uint64_t>(mask_of[p]))});
    guard(d, cond, negated);
    branchz(p, c.blocks[p].name);
    jump(s, c.blocks[s].name);
  }

  void original_block(const FunctionReconvergence& r, uint32_t b,
                      const std::vector<int64_t>& mask_of, const std::vector<int32_t>& primary) {
    const ReconvergingCfg& c = r.cfg;
    const BasicBlock& bb = program_.cfgs[fi_].blocks[b];
    const ReconvergingCfg::Block& rb = c.blocks[b];
    const Instruction* term = nullptr;
    for (Pc pc = bb.begin; pc < bb.end; pc += kInstrBytes) {
      const Instruction& in = m_.at(pc);
      if (pc + kInstrBytes == bb.end && is_block_terminator(in)) {
        term = &in;
        // exit and trap act where they are; bra and ret become edges.
        if (in.op != Opcode::Exit && in.op != Opcode::Trap) continue;
      }
      for (const Operand& op : in.ops)
        if (has_label(op) && in.op != Opcode::Bra)
          throw CfgError("function " + fn_.name + ": `" + in.text + "` (line " +
                         std::to_string(in.loc.line) +
                         ") uses a label as a value, which the exec-mask lowering cannot place");
      copied_[pc] = code_.size();
      code_.push_back(in);
    }
    const bool guarded = term && term->has_guard;
    const uint32_t g = guarded ? term->guard_reg : 0;
    const bool gneg = guarded && term->guard_negated;
    const auto is_flow = [&](uint32_t t) { return c.blocks[t].flow; };
    // Intents of lanes leaving over a rerouted edge.
    const std::vector<uint32_t>& os = rb.original_succ;
    if (os.size() == 2 && is_flow(rb.edge_to[0]) && is_flow(rb.edge_to[1])) {
      // selp: the guard picks the first successor; negated, the second.
      const uint32_t yes = gneg ? os[1] : os[0], no = gneg ? os[0] : os[1];
      Instruction& s = emit(Opcode::Selp,
                            "selp.u32 %emask.intent, " + std::to_string(yes) + ", " +
                                std::to_string(no) + ", " + fn_.regs[g].name,
                            {reg(intent_, Type::U32), imm(yes), imm(no), reg(g, Type::Pred)});
      s.type = Type::U32;
    } else {
      for (size_t i = 0; i < os.size(); ++i)
        if (is_flow(rb.edge_to[i])) {
          Instruction& mv = emit(Opcode::Mov, "mov.u32 %emask.intent, " + std::to_string(os[i]),
                                 {reg(intent_, Type::U32), imm(os[i])});
          mv.type = Type::U32;
        }
    }
    if (rb.succ.size() == 1) {
      jump(rb.succ[0], c.blocks[rb.succ[0]].name);
      return;
    }
    if (!guarded)
      throw std::logic_error("exec-mask lowering: two-way " + rb.name + " without a guard");
    if (rb.divergent) {
      const uint32_t p = static_cast<uint32_t>(primary[b]);
      const bool first = rb.edge_to[0] == p;  // the guard's edge leads to p
      divergent_end(c, p, first ? rb.edge_to[1] : rb.edge_to[0], g, first ? gneg : !gneg, mask_of);
      return;
    }
    // A uniform two-way branch (bra.uni): as it was, to where its edges lead now.
    Instruction copy = *term;
    code_.push_back(copy);
    for (size_t k = 0; k < copy.ops.size(); ++k)
      if (copy.ops[k].kind == Operand::Kind::Label)
        fixes_.push_back({code_.size() - 1, k, rb.edge_to[0]});
    jump(rb.edge_to[1], c.blocks[rb.edge_to[1]].name);
  }

  void flow_block(const ReconvergingCfg& c, uint32_t x, const std::vector<int64_t>& mask_of,
                  const std::vector<int32_t>& primary) {
    const ReconvergingCfg::Block& fb = c.blocks[x];
    // Routes depend on the intent alone (checked here).
    std::map<uint32_t, uint32_t> to_of;
    for (const ReconvergingCfg::Route& rt : fb.routes) {
      auto [it, fresh] = to_of.emplace(rt.intent, rt.to);
      if (!fresh && it->second != rt.to)
        throw std::logic_error("exec-mask lowering: " + fb.name + " routes lanes for " +
                               c.blocks[rt.intent].name + " two ways");
    }
    if (fb.succ.size() == 1) {
      jump(fb.succ[0], c.blocks[fb.succ[0]].name);
      return;
    }
    const uint32_t p = static_cast<uint32_t>(primary[x]);
    const uint32_t s = fb.succ[0] == p ? fb.succ[1] : fb.succ[0];
    bool first = true;
    for (const auto& [intent, to] : to_of) {
      if (to != p) continue;
      std::vector<Operand> ops{reg(route_, Type::Pred), Operand{}, reg(intent_, Type::U32),
                               imm(intent)};
      if (!first) ops.push_back(reg(route_, Type::Pred));
      Instruction& in = emit(Opcode::Setp,
                             std::string(first ? "setp.eq.u32" : "setp.eq.or.u32") +
                                 " %emask.route, %emask.intent, " + std::to_string(intent) +
                                 (first ? "" : ", %emask.route"),
                             std::move(ops));
      in.type = Type::U32;
      in.cmp = CmpOp::Eq;
      if (!first) in.boolop = BoolOp::Or;
      first = false;
    }
    if (first)
      throw std::logic_error("exec-mask lowering: no lane of " + fb.name + " goes to its primary");
    divergent_end(c, p, s, route_, false, mask_of);
  }

  const Program& program_;
  const Module& m_;
  uint32_t fi_;
  Function& fn_;
  uint32_t intent_ = 0, route_ = 0;
  uint32_t next_ = kNoBlock;
  SourceLoc loc_;
  std::vector<Instruction> code_;
  std::vector<Fix> fixes_;
  std::vector<size_t> start_;  // per block of the reconverging CFG: its first instruction
  std::map<Pc, size_t> copied_;
  std::vector<std::pair<std::string, size_t>> starts_;
  size_t inserted_ = 0;
};

}  // namespace

ExecMaskLowering lower_exec_masks(const Program& program) {
  const Module& m = program.module;
  ExecMaskLowering out;
  out.module = m;
  out.module.code.clear();
  std::vector<uint32_t> order(m.functions.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return m.functions[a].begin < m.functions[b].begin;
  });
  for (uint32_t fi : order) {
    Function& fn = out.module.functions[fi];
    const Pc base = static_cast<Pc>(out.module.code.size()) * kInstrBytes;
    if (program.cfgs[fi].blocks.empty()) {
      fn.begin = fn.end = base;
      fn.labels.clear();
      continue;
    }
    FunctionLowering lowering(program, fi, fn);
    std::vector<Instruction> code = lowering.run(out.mask_instructions, out.flow_blocks);
    for (size_t i = 0; i < code.size(); ++i) {
      Instruction& in = code[i];
      in.pc = base + static_cast<Pc>(i) * kInstrBytes;
      in.function = fi;
      if (in.op == Opcode::Bra || in.op == Opcode::EmaskBranchz)
        for (Operand& op : in.ops)
          if (op.kind == Operand::Kind::Label) op.target = base + op.target * kInstrBytes;
    }
    for (auto& [name, pc] : fn.labels)
      pc = base + static_cast<Pc>(lowering.index_of(pc)) * kInstrBytes;
    // The blocks by their names in the reconverging CFG, under names no PTX
    // label can have ('.' is not allowed in identifiers), for listings.
    for (const auto& [name, index] : lowering.block_starts())
      fn.labels[std::string(kLoweredBlockPrefix) + name] =
          base + static_cast<Pc>(index) * kInstrBytes;
    fn.begin = base;
    fn.end = base + static_cast<Pc>(code.size()) * kInstrBytes;
    for (Instruction& in : code) out.module.code.push_back(std::move(in));
  }
  out.module.flow_blocks = out.flow_blocks;
  return out;
}

}  // namespace warptlm
