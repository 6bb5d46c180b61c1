#include "reconverge/function_reconvergence.h"

#include <cstdio>
#include <sstream>

#include "frontend/cfg.h"
#include "reconverge/uniformity.h"

namespace warptlm {

std::string pc_text(Pc pc) {
  if (pc == kExitPc) return "exit";
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%04llx", static_cast<unsigned long long>(pc));
  return buf;
}

BranchGraph function_branch_graph(const Program& program, uint32_t function,
                                  std::vector<Pc>* begin) {
  const Module& m = program.module;
  const FunctionCfg& cfg = program.cfgs.at(function);
  const uint32_t exit = static_cast<uint32_t>(cfg.blocks.size());
  BranchGraph g;
  g.blocks.resize(cfg.blocks.size() + 1);
  if (begin) begin->assign(cfg.blocks.size() + 1, kExitPc);
  const std::vector<bool> uniform = uniform_branch_blocks(program, function);
  for (uint32_t b = 0; b < cfg.blocks.size(); ++b) {
    const BasicBlock& bb = cfg.blocks[b];
    const Instruction& last = m.at(bb.end - kInstrBytes);
    BranchGraph::Block& gb = g.blocks[b];
    gb.name = "B" + std::to_string(b);
    if (begin) (*begin)[b] = bb.begin;
    if (last.op != Opcode::Bra && is_block_terminator(last) && bb.exits)
      gb.succ.push_back(exit);  // a (guarded) ret, exit or trap: taken when its guard holds
    for (uint32_t s : bb.succs) gb.succ.push_back(s);
    if (bb.exits && (last.op == Opcode::Bra || !is_block_terminator(last)))
      gb.succ.push_back(exit);  // falls off the function's end
    // bra.uni by the compiler's word, other guarded bras by the uniformity
    // analysis: a scalar branch, kept as it is.
    const bool scalar = last.op == Opcode::Bra && (last.uni || uniform[b]);
    gb.divergent = gb.succ.size() == 2 && last.has_guard && !scalar;
  }
  g.blocks[exit].name = "exit";
  g.entry = 0;
  return g;
}

FunctionReconvergence reconverge_function(const Program& program, uint32_t function) {
  FunctionReconvergence r;
  r.function = function;
  r.graph = function_branch_graph(program, function, &r.begin);
  try {
    r.cfg = make_reconverging(r.graph);
  } catch (const CfgError& e) {
    throw CfgError("function " + program.module.functions.at(function).name + ": " + e.what());
  }
  return r;
}

std::string reconverging_text(const FunctionReconvergence& r) {
  const ReconvergingCfg& c = r.cfg;
  std::ostringstream out;
  out << "  reconverging CFG: ";
  if (c.flow_blocks() == 0)
    out << "already reconverging (unchanged)\n";
  else
    out << c.flow_blocks() << " flow block" << (c.flow_blocks() == 1 ? "" : "s") << " inserted\n";
  for (uint32_t b = 0; b < c.blocks.size(); ++b) {
    const ReconvergingCfg::Block& blk = c.blocks[b];
    out << "    " << blk.name;
    if (!blk.flow && r.begin[b] != kExitPc) out << " [" << pc_text(r.begin[b]) << "]";
    out << " ->";
    if (blk.succ.empty()) out << " (end)";
    for (uint32_t s : blk.succ) out << " " << c.blocks[s].name;
    if (blk.divergent) out << "  divergent";
    out << "\n";
    for (const ReconvergingCfg::Route& rt : blk.routes)
      out << "      from " << c.blocks[rt.from].name << " for " << c.blocks[rt.intent].name
          << " -> " << c.blocks[rt.to].name << "\n";
  }
  return out.str();
}

std::string reconverging_dot(const Program& program, const FunctionReconvergence& r) {
  const ReconvergingCfg& c = r.cfg;
  std::ostringstream out;
  out << "digraph \"" << program.module.functions.at(r.function).name << "\" {\n"
      << "  node [shape=box, fontname=\"monospace\"];\n";
  for (uint32_t b = 0; b < c.blocks.size(); ++b) {
    const ReconvergingCfg::Block& blk = c.blocks[b];
    out << "  \"" << blk.name << "\" [label=\"" << blk.name;
    if (!blk.flow && r.begin[b] != kExitPc) out << "\\n" << pc_text(r.begin[b]);
    out << "\"" << (blk.flow ? ", style=dashed" : "") << "];\n";
  }
  for (uint32_t b = 0; b < c.blocks.size(); ++b)
    for (uint32_t s : c.blocks[b].succ)
      out << "  \"" << c.blocks[b].name << "\" -> \"" << c.blocks[s].name << "\""
          << (c.blocks[b].divergent ? "" : " [style=dotted]") << ";\n";
  out << "}\n";
  return out.str();
}

}  // namespace warptlm
