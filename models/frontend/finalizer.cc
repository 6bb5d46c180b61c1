#include "frontend/finalizer.h"

#include <algorithm>

#include "frontend/cfg.h"
#include "frontend/layout_rank.h"
#include "frontend/markers.h"
#include "frontend/postdom.h"
#include "frontend/structure.h"
#include "frontend/taint.h"
#include "frontend/uniformity.h"

namespace warptlm {
namespace {

Pc label_target(const Instruction& in) {
  for (const Operand& op : in.ops)
    if (op.kind == Operand::Kind::Label) return op.target;
  return kExitPc;  // unreachable: build_cfg already rejected such a bra
}

// Fills the dominator facts of one function's CFG and appends a BranchInfo
// for each of its bra instructions (taints are filled in later).
void analyze_function(const Module& module, FunctionCfg& cfg, std::vector<BranchInfo>& branches) {
  cfg.idom = dominator_tree(cfg);
  cfg.ipdom = post_dominator_tree(cfg);
  cfg.reducible = is_reducible(cfg);
  cfg.structured = cfg.reducible;
  const std::vector<bool> reachable = reachable_from_entry(cfg);

  for (uint32_t b = 0; b < cfg.blocks.size(); ++b) {
    const BasicBlock& block = cfg.blocks[b];
    const Instruction& last = module.at(block.end - kInstrBytes);
    if (last.op != Opcode::Bra) continue;
    BranchInfo info;
    info.pc = last.pc;
    info.target = label_target(last);
    info.fallthrough = last.pc + kInstrBytes;
    info.conditional = last.has_guard;
    info.uniform_hint = last.uni;
    int32_t reconv = cfg.ipdom[b];
    info.reconv = reconv < 0 ? kExitPc : cfg.blocks[reconv].begin;
    if (info.conditional) {
      info.structured = is_structured_branch(cfg, b, reachable);
      cfg.structured = cfg.structured && info.structured;
    }
    branches.push_back(info);
  }
}

}  // namespace

const char* taint_name(Taint t) { return t == Taint::Programmatic ? "P" : "D"; }

Program analyze(Module module) {
  Program p;
  p.module = std::move(module);
  const Module& m = p.module;
  for (uint32_t f = 0; f < m.functions.size(); ++f) {
    p.cfgs.push_back(build_cfg(m, f));
    analyze_function(m, p.cfgs.back(), p.branches);
  }
  std::sort(p.branches.begin(), p.branches.end(),
            [](const BranchInfo& a, const BranchInfo& b) { return a.pc < b.pc; });

  const std::vector<Taint> guards = guard_taints(m, p.cfgs);
  const std::vector<bool> uniform = cta_uniform_branches(m, p.cfgs);
  p.branch_index.assign(m.code.size(), -1);
  for (size_t i = 0; i < p.branches.size(); ++i) {
    BranchInfo& br = p.branches[i];
    br.taint = br.conditional ? guards[br.pc / kInstrBytes] : Taint::Programmatic;
    br.cta_uniform = br.conditional && uniform[br.pc / kInstrBytes];
    p.branch_index[br.pc / kInstrBytes] = static_cast<int32_t>(i);
  }
  p.layout_rank = layout_ranks(m, p.cfgs);
  return p;
}

std::vector<Pc> reconvergence_pcs(const Program& program) {
  std::vector<Pc> pcs;
  for (const BranchInfo& br : program.branches)
    if (br.conditional && br.reconv != kExitPc) pcs.push_back(br.reconv);
  std::sort(pcs.begin(), pcs.end());
  pcs.erase(std::unique(pcs.begin(), pcs.end()), pcs.end());
  return pcs;
}

Program finalize(Module module, const FinalizeOptions& options) {
  Program p = analyze(std::move(module));
  if (!options.insert_reconvergence_markers) return p;
  std::vector<Pc> at = reconvergence_pcs(p);
  if (at.empty()) return p;
  return analyze(insert_markers(p.module, std::move(at)));
}

}  // namespace warptlm
