#!/usr/bin/python3
"""Cost of thread block compaction and of the compactability analysis on the scenario suite.

For every built-in scenario at the given size, times (best of N) a plain functional run
(ipdom, no compaction), a compaction=tbc run (permutation none) and a run with the
compactability analysis (tbc semantics, every permutation measured), and prints the
ratios to the plain run (the analysis' goal is at most 3x) together with what the
analysis found: compaction rate per branch class (P/D) for none / odd_even / balanced
/ ideal, and SIMD utilisation without compaction, ideal, and with TBC per permutation.
A benchmark, not a test: it asserts nothing, it prints figures.

The analysis is a C++ API (compaction/compactability.h) not yet reachable from the CLI,
so the script compiles a small driver against the static libraries of a build tree
(configure and build test_scenarios or the warptlm target there first):

    /usr/bin/python3 scripts/bench_compaction.py [--build build] [--size study]
        [--warp-size 32] [--repeat 3] [--only NAME,...]
"""
import argparse
import glob
import os
import subprocess
import sys
import tempfile

DRIVER = r"""
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "compaction/compactability.h"
#include "exec/functional_executor.h"
#include "frontend/program.h"
#include "frontend/ptx_parser.h"
#include "scenario.h"

using namespace warptlm;
using namespace warptlm::scenarios;

static double seconds(const Program& p, const Scenario& s, const LaunchSpec& in,
                      const ExecConfig& c, CompactionAnalysis* a, int repeat, RunStats* st) {
  double best = 1e30;
  for (int i = 0; i < repeat; ++i) {
    LaunchSpec l = in;
    auto t0 = std::chrono::steady_clock::now();
    RunStats r = run_functional(p, s.entry, l, c, nullptr, a);
    double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!s.check(in, l).passed) { std::fprintf(stderr, "%s: wrong result\n", s.name.c_str()); std::exit(1); }
    best = std::min(best, dt);
    *st = r;
  }
  return best;
}

int main(int argc, char** argv) {
  const std::string size = argv[1];
  const unsigned ws = unsigned(std::atoi(argv[2]));
  const int repeat = std::atoi(argv[3]);
  const std::string only = argc > 4 && *argv[4] ? std::string(",") + argv[4] + "," : "";
  std::printf("%-16s%10s%10s%10s%8s%8s | %-27s| %-27s| %s\n", "scenario", "plain s", "tbc s",
              "anal. s", "tbc x", "anal x", "P rate none/oe/bal/ideal", "D rate none/oe/bal/ideal",
              "SIMD util % no/ideal/tbc none,oe,rev_wid,wid,random,flip,rot,bal,xor_half");
  double tp = 0, tt = 0, ta = 0;
  for (const Scenario& s : all()) {
    if (!only.empty() && only.find("," + s.name + ",") == std::string::npos) continue;
    Program p = finalize(parse_ptx(scenario_ptx(s), s.source_dir + "/kernel.ptx"));
    LaunchSpec in = s.make_launch(resolve_size(s, size), 1);
    ExecConfig plain;
    plain.warp_size = ws;
    ExecConfig tbc = plain;
    tbc.compaction = "tbc";
    RunStats st;
    CompactionAnalysis an;
    double a = seconds(p, s, in, plain, nullptr, repeat, &st);
    double b = seconds(p, s, in, tbc, nullptr, repeat, &st);
    double c = seconds(p, s, in, tbc, &an, repeat, &st);
    tp += a, tt += b, ta += c;
    const size_t none = an.permutation_index("none"), oe = an.permutation_index("odd_even"),
                 bal = an.permutation_index("balanced");
    char prate[64], drate[64];
    std::snprintf(prate, sizeof prate, "%.2f/%.2f/%.2f/%.2f (%llu)",
                  an.compaction_rate(Taint::Programmatic, none),
                  an.compaction_rate(Taint::Programmatic, oe),
                  an.compaction_rate(Taint::Programmatic, bal),
                  an.ideal_compaction_rate(Taint::Programmatic),
                  (unsigned long long)an.summary(Taint::Programmatic).paths);
    std::snprintf(drate, sizeof drate, "%.2f/%.2f/%.2f/%.2f (%llu)",
                  an.compaction_rate(Taint::DataDependent, none),
                  an.compaction_rate(Taint::DataDependent, oe),
                  an.compaction_rate(Taint::DataDependent, bal),
                  an.ideal_compaction_rate(Taint::DataDependent),
                  (unsigned long long)an.summary(Taint::DataDependent).paths);
    std::printf("%-16s%10.3f%10.3f%10.3f%8.2f%8.2f | %-27s| %-27s| %.1f/%.1f/", s.name.c_str(), a,
                b, c, b / a, c / a, prate, drate, 100 * an.simd_utilisation_no_compaction(),
                100 * an.simd_utilisation_ideal());
    for (size_t i = 0; i < an.permutations().size(); ++i)
      std::printf("%s%.1f", i ? "," : "", 100 * an.simd_utilisation_tbc(i));
    std::printf("\n");
    std::fflush(stdout);
  }
  std::printf("%-16s%10.3f%10.3f%10.3f%8.2f%8.2f\n", "all", tp, tt, ta, tt / tp, ta / tp);
}
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
    ap.add_argument("--build", default=os.path.join(root, "build"))
    ap.add_argument("--size", default="study")
    ap.add_argument("--warp-size", type=int, default=32)
    ap.add_argument("--repeat", type=int, default=3, help="best of N runs")
    ap.add_argument("--only", default="", help="comma-separated scenario names")
    args = ap.parse_args()
    libs = glob.glob(os.path.join(args.build, "models", "libwarptlm_*.a"))
    scen = os.path.join(args.build, "scenarios", "libwarptlm_scenarios.a")
    if not libs or not os.path.exists(scen):
        sys.exit(f"no static libraries under {args.build}: build the test_scenarios target first")
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = os.path.join(tmp, "driver.cc"), os.path.join(tmp, "driver")
        with open(src, "w") as f:
            f.write(DRIVER)
        cmd = ["g++", "-std=c++17", "-O2", "-I", os.path.join(root, "models"),
               "-I", os.path.join(root, "scenarios"), src, "-o", exe,
               "-Wl,--start-group", scen, *sorted(libs), "-Wl,--end-group"]
        subprocess.run(cmd, check=True)
        subprocess.run([exe, args.size, str(args.warp_size), str(args.repeat), args.only],
                       check=True)


if __name__ == "__main__":
    main()
