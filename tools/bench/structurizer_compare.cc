// How many blocks the reconverging transformation (seed 001) inserts against
// a structurizer that makes the CFG fully structured: LLVM's, as AMD's
// backend runs it before instruction selection (fix-irreducible,
// unify-loop-exits, structurizecfg; every region, uniform or not, as llc
// -mtriple=amdgcn does in LLVM 14). Both run on the same CFGs: the slides'
// example, seeded random graphs (irreducible ones among them) and, given
// PTX files, every function of each. Prints one line per CFG and totals.
//   build/tools/bench/warptlm_structurizer_compare [--opt OPT] [--emit DIR] [--seeds N]
//   [FILE.ptx...]
// OPT defaults to $WARPTLM_OPT, else opt-14 (the figures in
// docs/reconverging-cfg.md come from LLVM 14.0.6, Debian bookworm's).
// --emit writes each CFG's LLVM IR there, to inspect or rerun by hand.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "frontend/program.h"
#include "frontend/ptx_parser.h"
#include "reconverge/branch_graph_llvm.h"
#include "reconverge/function_reconvergence.h"
#include "reconverge/random_branch_graph.h"
#include "reconverge/reconverging_cfg.h"

namespace {

using warptlm::BranchGraph;

const char* kPasses = "fix-irreducible,unify-loop-exits,structurizecfg";

struct Options {
  std::string opt = "opt-14";
  std::string emit;
  uint32_t seeds = 20;
  std::vector<std::string> ptx;
};

std::string run_opt(const Options& o, const std::string& ir, const std::string& name) {
  char path[] = "/tmp/warptlm-structurizer-XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) throw std::runtime_error("cannot create a temporary file");
  close(fd);
  { std::ofstream(path) << ir; }
  if (!o.emit.empty()) std::ofstream(o.emit + "/" + name + ".ll") << ir;
  const std::string cmd = o.opt + " -S -passes=" + kPasses + " " + path + " -o - 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  size_t n;
  while (p && (n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int status = p ? pclose(p) : -1;
  std::remove(path);
  if (status != 0) throw std::runtime_error("'" + cmd + "' failed on " + name + ":\n" + out);
  return out;
}

struct Row {
  size_t blocks = 0, ours = 0, ours_uniform = 0, llvm = 0;
};

struct Totals {
  size_t graphs = 0, blocks = 0, ours = 0, llvm = 0, fewer = 0, same = 0, more = 0;
  void add(const Row& r) {
    ++graphs;
    blocks += r.blocks;
    ours += r.ours;
    llvm += r.llvm;
    (r.ours < r.llvm ? fewer : r.ours == r.llvm ? same : more)++;
  }
  void print(const char* family) const {
    std::printf(
        "%-22s %4zu CFGs, %6zu blocks: reconverging %5zu flow blocks, structurizer %5zu "
        "(%.2fx); fewer in %zu, as many in %zu, more in %zu\n",
        family, graphs, blocks, ours, llvm, ours ? double(llvm) / double(ours) : 0.0, fewer, same,
        more);
  }
};

// Every two-way branch divergent: what the structurizer assumes, so the
// counts compare the algorithms on the same question.
BranchGraph all_divergent(BranchGraph g) {
  for (BranchGraph::Block& b : g.blocks) b.divergent = b.succ.size() == 2;
  return g;
}

Row compare(const Options& o, const BranchGraph& g, const std::string& name) {
  Row r;
  const std::vector<bool> live = warptlm::reachable_blocks(g);
  r.blocks = static_cast<size_t>(std::count(live.begin(), live.end(), true));
  const BranchGraph d = all_divergent(g);
  r.ours = warptlm::make_reconverging(d).flow_blocks();
  r.ours_uniform = warptlm::make_reconverging(g).flow_blocks();
  const std::string ir = warptlm::branch_graph_llvm_ir(d, name);
  // + 1: the IR's own entry block, which jumps to the graph's entry.
  r.llvm = warptlm::llvm_ir_block_count(run_opt(o, ir, name)) - (r.blocks + 1);
  return r;
}

BranchGraph slides_example() {
  // A -> B, C; B -> D; C -> D, E; D -> D, F; E -> C, F (all divergent).
  const std::vector<std::vector<uint32_t>> succ{{1, 2}, {3}, {3, 4}, {3, 5}, {2, 5}, {}};
  BranchGraph g;
  for (size_t i = 0; i < succ.size(); ++i) {
    BranchGraph::Block b;
    b.succ = succ[i];
    b.divergent = b.succ.size() == 2;
    b.name = std::string(1, char('A' + i));
    g.blocks.push_back(b);
  }
  return g;
}

void print_row(const std::string& name, const Row& r, bool with_uniform) {
  std::printf("  %-40s %6zu %8zu %8zu", name.c_str(), r.blocks, r.ours, r.llvm);
  if (with_uniform) std::printf(" %10zu", r.ours_uniform);
  std::printf("\n");
}

int usage() {
  std::fprintf(stderr,
               "usage: warptlm_structurizer_compare [--opt OPT] [--emit DIR] [--seeds N] "
               "[FILE.ptx...]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (const char* env = std::getenv("WARPTLM_OPT")) o.opt = env;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if ((a == "--opt" || a == "--emit" || a == "--seeds") && i + 1 < argc) {
      const std::string v = argv[++i];
      if (a == "--opt") o.opt = v;
      if (a == "--emit") o.emit = v;
      if (a == "--seeds") o.seeds = static_cast<uint32_t>(std::strtoul(v.c_str(), nullptr, 10));
    } else if (!a.empty() && a[0] != '-') {
      o.ptx.push_back(a);
    } else {
      return usage();
    }
  }
  try {
    std::printf("structurizer: %s -passes=%s\n", o.opt.c_str(), kPasses);
    std::printf("  %-40s %6s %8s %8s%s\n", "CFG", "blocks", "reconv", "llvm",
                o.ptx.empty() ? "" : " reconv-uni");
    if (o.ptx.empty()) {
      Row s = compare(o, slides_example(), "slides");
      print_row("slides example, default order", s, false);
      // The slides' own order (A, B, D, C, E, F) gets their two flow blocks.
      s.ours = warptlm::make_reconverging(slides_example(), {0, 1, 3, 2, 4, 5}).flow_blocks();
      print_row("slides example, the slides' order", s, false);
      for (uint32_t window : {16u, 0u})
        for (uint32_t n :
             window ? std::vector<uint32_t>{30, 100, 300} : std::vector<uint32_t>{10, 30, 100}) {
          Totals t;
          for (uint32_t seed = 1; seed <= o.seeds; ++seed) {
            warptlm::RandomGraphShape shape;
            shape.blocks = n;
            shape.window = window;
            const std::string name = std::string(window ? "local" : "anywhere") + "_" +
                                     std::to_string(n) + "_seed" + std::to_string(seed);
            t.add(compare(o, warptlm::random_branch_graph(seed, shape), name));
          }
          const std::string family =
              std::string(window ? "local" : "anywhere") + ", " + std::to_string(n) + " blocks";
          t.print(family.c_str());
        }
      return 0;
    }
    Totals all;
    size_t uniform_total = 0;
    for (const std::string& path : o.ptx) {
      const warptlm::Program program = warptlm::finalize(warptlm::parse_ptx_file(path));
      for (uint32_t f = 0; f < program.module.functions.size(); ++f) {
        const std::string fname = program.module.functions[f].name;
        std::string base = path.substr(path.find_last_of('/') + 1);
        const Row r = compare(o, warptlm::function_branch_graph(program, f), base + "." + fname);
        print_row(base + ":" + fname, r, true);
        all.add(r);
        uniform_total += r.ours_uniform;
      }
    }
    all.print("PTX functions");
    std::printf("%-22s reconverging with the uniformity analysis: %zu flow blocks\n", "",
                uniform_total);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "warptlm_structurizer_compare: %s\n", e.what());
    return 1;
  }
  return 0;
}
