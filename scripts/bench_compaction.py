#!/usr/bin/python3
"""Cost of thread block compaction and of the compactability analysis on the scenario suite.

For every built-in scenario at the given size, times (best of N, the simulation's own
``wall_seconds``) a plain functional run (ipdom, no compaction), a compaction=tbc run,
a compaction=capri run (permutation balanced) and a plain run with the compactability
analysis (every permutation measured in one pass), and prints the ratios to the plain
run: issue 7 asks that compaction off cost nothing measurable and the analysis at most
3x. With ``--mode timing`` the same runs go through the timing model (formed warps in
the SMs; the analysis is functional-only and left out). A benchmark, not a test: it
asserts nothing, it prints figures.
What the analysis finds is the slp_compactability study's business (scripts/run_studies.py).

    PYTHONPATH=build/python /usr/bin/python3 scripts/bench_compaction.py [--preset fermi]
        [--size study] [--repeat 3] [--mode timing] [SCENARIO...]
"""
import argparse
import sys

import warptlm


def best(repeat, run):
    return min(run().wall_seconds for _ in range(repeat))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenarios", nargs="*", help="default: every built-in scenario")
    parser.add_argument("--preset", default="fermi")
    parser.add_argument("--size", default="study")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--mode", choices=["functional", "timing"], default="functional")
    args = parser.parse_args(argv)
    timing = args.mode == "timing"
    plain = warptlm.Platform(args.preset)
    tbc = plain.with_(compaction="tbc")
    capri = plain.with_(compaction="capri", permutation="balanced")

    def run(platform, name, size, **kwargs):
        return warptlm.scenarios.run(platform, name, size, mode=args.mode, **kwargs)

    totals = [0.0, 0.0, 0.0, 0.0]
    print(f"{'scenario':<16} {'plain s':>8} {'tbc':>6} {'capri':>6} {'analysis':>8}   (x plain)")
    for name in args.scenarios or warptlm.scenarios.list():
        times = [best(args.repeat, lambda: run(plain, name, args.size)),
                 best(args.repeat, lambda: run(tbc, name, args.size)),
                 best(args.repeat, lambda: run(capri, name, args.size)),
                 float("nan") if timing else
                 best(args.repeat, lambda: run(plain, name, args.size, compactability=True))]
        totals = [t + s for t, s in zip(totals, times)]
        print(f"{name:<16} {times[0]:8.3f} {times[1] / times[0]:6.2f} {times[2] / times[0]:6.2f} "
              f"{times[3] / times[0]:8.2f}")
    print(f"{'suite':<16} {totals[0]:8.3f} {totals[1] / totals[0]:6.2f} {totals[2] / totals[0]:6.2f} "
          f"{totals[3] / totals[0]:8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
