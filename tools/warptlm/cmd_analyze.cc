// `warptlm analyze FILE.ptx`: the finalizer's view of every function.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "commands.h"
#include "exec/prepared_program.h"
#include "frontend/program.h"
#include "frontend/ptx_parser.h"
#include "frontend/register_pressure.h"
#include "reconverge/exec_mask_lowering.h"
#include "reconverge/function_reconvergence.h"

namespace warptlm::cli {
CLI::App* add_analyze(CLI::App& app, AnalyzeCommand& c) {
  CLI::App* cmd =
      app.add_subcommand("analyze",
                         "Per kernel and function: basic blocks, and every branch with its PC, "
                         "reconvergence PC (IPDOM), structured or not, and P/D taint.");
  cmd->add_option("file", c.file, "the PTX file")->required()->type_name("FILE.ptx");
  CLI::Option* markers =
      cmd->add_flag("--markers", c.markers,
                    "insert the explicit reconvergence markers (as ppc_explicit runs do)");
  cmd->add_flag("--lowered", c.lowered,
                "analyze the program as exec_mask runs it (lowered to exec masks: flow blocks "
                "and emask.* instructions) and list its code, * marking what the lowering wrote")
      ->excludes(markers);
  cmd->add_flag("--reconverging", c.reconverging,
                "also print each function's reconverging CFG (compiler-side reconvergence: the "
                "flow blocks inserted and where they send each lane)");
  cmd->add_flag("--reconverging-dot", c.reconverging_dot,
                "print each function's reconverging CFG as a Graphviz digraph instead");
  return cmd;
}

int cmd_analyze(const AnalyzeCommand& c) {
  const ProgramForm form = c.lowered   ? ProgramForm::ExecMask
                           : c.markers ? ProgramForm::Markers
                                       : ProgramForm::Plain;
  Program program = prepare_program(parse_ptx_file(c.file), form);
  const Module& m = program.module;
  if (c.reconverging_dot) {
    for (uint32_t fi = 0; fi < m.functions.size(); ++fi) {
      if (program.cfgs[fi].blocks.empty()) continue;
      try {
        std::cout << reconverging_dot(program, reconverge_function(program, fi));
      } catch (const CfgError& e) {
        std::cout << "// " << e.what() << "\n";  // a DOT comment: the other graphs still load
      }
    }
    return 0;
  }
  std::cout << m.source_name << ": PTX " << m.version << ", target " << m.target << ", "
            << m.functions.size() << " function(s), " << m.code.size() << " instructions\n";
  if (c.lowered) {
    size_t written = 0;
    for (const Instruction& in : m.code) written += in.lowered;
    std::cout << "lowered to exec masks: " << m.flow_blocks << " flow block(s) inserted, "
              << written << " instruction(s) written\n";
  }
  for (size_t fi = 0; fi < m.functions.size(); ++fi) {
    const Function& f = m.functions[fi];
    const FunctionCfg& cfg = program.cfgs[fi];
    std::cout << "\n"
              << (f.is_entry ? ".entry " : ".func ") << f.name << "  [" << pc_text(f.begin) << ", "
              << pc_text(f.end) << ")  " << cfg.blocks.size() << " blocks, "
              << (cfg.reducible ? "reducible" : "IRREDUCIBLE") << ", "
              << (cfg.structured ? "structured" : "UNSTRUCTURED") << "\n";
    if (f.begin != f.end) {
      unsigned declared = 0;
      for (const RegDecl& r : f.regs) declared += register_units(r.type);
      std::cout << "  registers: " << register_pressure(m, static_cast<uint32_t>(fi))
                << " live at most, callees included (" << declared
                << " declared; 32-bit units, predicates apart)\n";
    }
    std::cout << "  blocks:\n";
    for (size_t b = 0; b < cfg.blocks.size(); ++b) {
      const BasicBlock& bb = cfg.blocks[b];
      std::cout << "    B" << b << " [" << pc_text(bb.begin) << ", " << pc_text(bb.end) << ") ->";
      if (bb.succs.empty()) std::cout << " exit";
      for (uint32_t s : bb.succs) std::cout << " B" << s;
      std::cout << "  ipdom " << (cfg.ipdom[b] < 0 ? "exit" : "B" + std::to_string(cfg.ipdom[b]))
                << "\n";
    }
    std::cout << "  branches:\n";
    bool any = false;
    for (const BranchInfo& bi : program.branches) {
      if (bi.pc < f.begin || bi.pc >= f.end) continue;
      any = true;
      std::cout << "    pc " << pc_text(bi.pc) << "  -> " << pc_text(bi.target);
      if (bi.conditional)
        std::cout << "  reconv " << pc_text(bi.reconv) << "  "
                  << (bi.structured ? "structured" : "unstructured") << "  taint "
                  << taint_name(bi.taint) << (bi.cta_uniform ? "  CTA-uniform" : "");
      else
        std::cout << "  unconditional";
      std::cout << "  `" << m.at(bi.pc).text << "`\n";
    }
    if (!any) std::cout << "    (none)\n";
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
      std::cout << "  code (* written by the lowering):\n";
      for (Pc pc = f.begin; pc < f.end; pc += kInstrBytes) {
        const Instruction& in = m.at(pc);
        for (; next_label < labels.size() && labels[next_label].first <= pc; ++next_label)
          std::cout << "  " << labels[next_label].second << "\n";
        std::cout << "   " << (in.lowered ? '*' : ' ') << " " << pc_text(pc) << "  " << in.text
                  << "\n";
      }
    }
    if (c.reconverging && !cfg.blocks.empty()) {
      try {
        std::cout << reconverging_text(reconverge_function(program, static_cast<uint32_t>(fi)));
      } catch (const CfgError& e) {
        std::cout << "  reconverging CFG: none: " << e.what() << "\n";
      }
    }
  }
  return 0;
}

}  // namespace warptlm::cli
