#include "analyze_text.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "exec/prepared_program.h"
#include "frontend/program.h"
#include "frontend/ptx_parser.h"
#include "frontend/register_pressure.h"
#include "reconverge/exec_mask_lowering.h"
#include "reconverge/function_reconvergence.h"

namespace warptlm::cli {

std::string analyze_text(const std::string& file, const AnalyzeOptions& c) {
  if (c.markers && c.lowered)
    throw std::invalid_argument("--markers and --lowered exclude each other");
  std::ostringstream out;
  const ProgramForm form = c.lowered   ? ProgramForm::ExecMask
                           : c.markers ? ProgramForm::Markers
                                       : ProgramForm::Plain;
  Program program = prepare_program(parse_ptx_file(file), form);
  const Module& m = program.module;
  if (c.reconverging_dot) {
    for (uint32_t fi = 0; fi < m.functions.size(); ++fi) {
      if (program.cfgs[fi].blocks.empty()) continue;
      try {
        out << reconverging_dot(program, reconverge_function(program, fi));
      } catch (const CfgError& e) {
        out << "// " << e.what() << "\n";  // a DOT comment: the other graphs still load
      }
    }
    return out.str();
  }
  out << m.source_name << ": PTX " << m.version << ", target " << m.target << ", "
      << m.functions.size() << " function(s), " << m.code.size() << " instructions\n";
  if (c.lowered) {
    size_t written = 0;
    for (const Instruction& in : m.code) written += in.lowered;
    out << "lowered to exec masks: " << m.flow_blocks << " flow block(s) inserted, " << written
        << " instruction(s) written\n";
  }
  for (size_t fi = 0; fi < m.functions.size(); ++fi) {
    const Function& f = m.functions[fi];
    const FunctionCfg& cfg = program.cfgs[fi];
    out << "\n"
        << (f.is_entry ? ".entry " : ".func ") << f.name << "  [" << pc_text(f.begin) << ", "
        << pc_text(f.end) << ")  " << cfg.blocks.size() << " blocks, "
        << (cfg.reducible ? "reducible" : "IRREDUCIBLE") << ", "
        << (cfg.structured ? "structured" : "UNSTRUCTURED") << "\n";
    if (f.begin != f.end) {
      unsigned declared = 0;
      for (const RegDecl& r : f.regs) declared += register_units(r.type);
      out << "  registers: " << register_pressure(m, static_cast<uint32_t>(fi))
          << " live at most, callees included (" << declared
          << " declared; 32-bit units, predicates apart)\n";
    }
    out << "  blocks:\n";
    for (size_t b = 0; b < cfg.blocks.size(); ++b) {
      const BasicBlock& bb = cfg.blocks[b];
      out << "    B" << b << " [" << pc_text(bb.begin) << ", " << pc_text(bb.end) << ") ->";
      if (bb.succs.empty()) out << " exit";
      for (uint32_t s : bb.succs) out << " B" << s;
      out << "  ipdom " << (cfg.ipdom[b] < 0 ? "exit" : "B" + std::to_string(cfg.ipdom[b])) << "\n";
    }
    out << "  branches:\n";
    bool any = false;
    for (const BranchInfo& bi : program.branches) {
      if (bi.pc < f.begin || bi.pc >= f.end) continue;
      any = true;
      out << "    pc " << pc_text(bi.pc) << "  -> " << pc_text(bi.target);
      if (bi.conditional)
        out << "  reconv " << pc_text(bi.reconv) << "  "
            << (bi.structured ? "structured" : "unstructured") << "  taint " << taint_name(bi.taint)
            << (bi.cta_uniform ? "  CTA-uniform" : "");
      else
        out << "  unconditional";
      out << "  `" << m.at(bi.pc).text << "`\n";
    }
    if (!any) out << "    (none)\n";
    if (c.lowered) {
      // Labels by pc, in name order: the lowering's blocks as [B2], the
      // source's labels as NAME:.
      const std::string prefix = kLoweredBlockPrefix;
      std::vector<std::pair<Pc, std::string>> labels;
      for (const auto& [name, pc] : f.labels)
        labels.emplace_back(
            pc, name.rfind(prefix, 0) == 0 ? "[" + name.substr(prefix.size()) + "]" : name + ":");
      std::sort(labels.begin(), labels.end(), [](const auto& a, const auto& b) {
        const bool block_a = a.second[0] == '[', block_b = b.second[0] == '[';
        return std::tie(a.first, block_b, a.second) < std::tie(b.first, block_a, b.second);
      });
      size_t next_label = 0;
      out << "  code (* written by the lowering):\n";
      for (Pc pc = f.begin; pc < f.end; pc += kInstrBytes) {
        const Instruction& in = m.at(pc);
        for (; next_label < labels.size() && labels[next_label].first <= pc; ++next_label)
          out << "  " << labels[next_label].second << "\n";
        out << "   " << (in.lowered ? '*' : ' ') << " " << pc_text(pc) << "  " << in.text << "\n";
      }
    }
    if (c.reconverging && !cfg.blocks.empty()) {
      try {
        out << reconverging_text(reconverge_function(program, static_cast<uint32_t>(fi)));
      } catch (const CfgError& e) {
        out << "  reconverging CFG: none: " << e.what() << "\n";
      }
    }
  }
  return out.str();
}

}  // namespace warptlm::cli
