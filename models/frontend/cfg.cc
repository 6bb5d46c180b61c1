#include "frontend/cfg.h"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace warptlm {
namespace {

// The taken target of a bra (its Label operand).
Pc branch_target(const Instruction& in) {
  for (const Operand& op : in.ops)
    if (op.kind == Operand::Kind::Label) return op.target;
  throw std::invalid_argument("bra without a label operand at pc " + std::to_string(in.pc));
}

void add_edge(FunctionCfg& cfg, uint32_t from, uint32_t to) {
  auto& succs = cfg.blocks[from].succs;
  // `@p bra next` has the same block as target and fall-through: one edge.
  if (std::find(succs.begin(), succs.end(), to) != succs.end()) return;
  succs.push_back(to);
  cfg.blocks[to].preds.push_back(from);
}

}  // namespace

bool is_block_terminator(const Instruction& in) {
  // trap ends the thread (the whole kernel, in fact) like exit.
  return in.op == Opcode::Bra || in.op == Opcode::Ret || in.op == Opcode::Exit ||
         in.op == Opcode::Trap || in.op == Opcode::EmaskBranchz;
}

int32_t block_containing(const FunctionCfg& cfg, Pc pc) {
  auto it = std::upper_bound(cfg.blocks.begin(), cfg.blocks.end(), pc,
                             [](Pc p, const BasicBlock& b) { return p < b.begin; });
  if (it == cfg.blocks.begin()) return -1;
  --it;
  return pc < it->end ? static_cast<int32_t>(it - cfg.blocks.begin()) : -1;
}

FunctionCfg build_cfg(const Module& module, uint32_t function) {
  const Function& fn = module.functions.at(function);
  FunctionCfg cfg;
  cfg.function = function;
  if (fn.begin >= fn.end) return cfg;  // no code: no blocks

  // Leaders, kept sorted by the set.
  std::set<Pc> leaders{fn.begin};
  for (Pc pc = fn.begin; pc < fn.end; pc += kInstrBytes) {
    const Instruction& in = module.at(pc);
    if (!is_block_terminator(in)) continue;
    if (pc + kInstrBytes < fn.end) leaders.insert(pc + kInstrBytes);
    if (in.op != Opcode::Bra && in.op != Opcode::EmaskBranchz) continue;
    Pc target = branch_target(in);
    if (target < fn.begin || target >= fn.end || (target - fn.begin) % kInstrBytes != 0)
      throw std::invalid_argument("branch at pc " + std::to_string(pc) + " in " + fn.name +
                                  " targets pc " + std::to_string(target) +
                                  " outside the function");
    leaders.insert(target);
  }

  for (auto it = leaders.begin(); it != leaders.end(); ++it) {
    auto next = std::next(it);
    BasicBlock b;
    b.begin = *it;
    b.end = next == leaders.end() ? fn.end : *next;
    cfg.blocks.push_back(b);
  }

  for (uint32_t i = 0; i < cfg.blocks.size(); ++i) {
    BasicBlock& b = cfg.blocks[i];
    const Instruction& last = module.at(b.end - kInstrBytes);
    bool has_next = i + 1 < cfg.blocks.size();
    // emask.branchz goes on when the exec mask is not empty: like a guarded bra.
    bool falls_through =
        !is_block_terminator(last) || last.has_guard || last.op == Opcode::EmaskBranchz;
    if (last.op == Opcode::Bra || last.op == Opcode::EmaskBranchz)
      add_edge(cfg, i, static_cast<uint32_t>(block_containing(cfg, branch_target(last))));
    else if (is_block_terminator(last))
      b.exits = true;  // ret / exit / trap, guarded or not
    if (falls_through) {
      if (has_next)
        add_edge(cfg, i, i + 1);
      else
        b.exits = true;  // runs off the end of the function: treated as a return
    }
  }
  return cfg;
}

std::vector<bool> reachable_from_entry(const FunctionCfg& cfg) {
  std::vector<bool> seen(cfg.blocks.size(), false);
  if (cfg.blocks.empty()) return seen;
  std::vector<uint32_t> work{0};
  seen[0] = true;
  while (!work.empty()) {
    uint32_t b = work.back();
    work.pop_back();
    for (uint32_t s : cfg.blocks[b].succs)
      if (!seen[s]) {
        seen[s] = true;
        work.push_back(s);
      }
  }
  return seen;
}

}  // namespace warptlm
