// `warptlm analyze FILE.ptx`: the finalizer's view of every function.
#include <cstdio>
#include <iostream>

#include "commands.h"
#include "frontend/program.h"
#include "frontend/ptx_parser.h"

namespace warptlm::cli {
namespace {

std::string pc_text(Pc pc) {
  if (pc == kExitPc) return "exit";
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%04llx", static_cast<unsigned long long>(pc));
  return buf;
}

}  // namespace

int cmd_analyze(Args& args) {
  FinalizeOptions options;
  options.insert_reconvergence_markers = args.take_flag("--markers");
  args.finish();
  auto files = args.positionals();
  if (files.size() != 1) throw UsageError("analyze takes exactly one FILE.ptx");
  Program program = finalize(parse_ptx_file(files[0]), options);
  const Module& m = program.module;
  std::cout << m.source_name << ": PTX " << m.version << ", target " << m.target << ", "
            << m.functions.size() << " function(s), " << m.code.size() << " instructions\n";
  for (size_t fi = 0; fi < m.functions.size(); ++fi) {
    const Function& f = m.functions[fi];
    const FunctionCfg& cfg = program.cfgs[fi];
    std::cout << "\n"
              << (f.is_entry ? ".entry " : ".func ") << f.name << "  [" << pc_text(f.begin) << ", "
              << pc_text(f.end) << ")  " << cfg.blocks.size() << " blocks, "
              << (cfg.reducible ? "reducible" : "IRREDUCIBLE") << ", "
              << (cfg.structured ? "structured" : "UNSTRUCTURED") << "\n";
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
                  << taint_name(bi.taint);
      else
        std::cout << "  unconditional";
      std::cout << "  `" << m.at(bi.pc).text << "`\n";
    }
    if (!any) std::cout << "    (none)\n";
  }
  return 0;
}

}  // namespace warptlm::cli
