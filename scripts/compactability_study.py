#!/usr/bin/python3
"""The SLP paper's compactability study (Rhu & Erez, ISCA 2013, Figures 11 and 14) on the scenarios.

Runs the compactability analysis (one functional pass per scenario measures
every lane permutation) on every built-in scenario, and writes:

- ``compaction_rates.csv``: scenario, branch_class (P/D), permutation, paths,
  compaction_rate, ideal_compaction_rate (Figure 11);
- ``simd_utilisation.csv``: scenario, scheme (no_compaction, ideal,
  tbc:<permutation>), warp_instructions, simd_utilisation (Figure 14);

and prints the P- and D-branch compaction rates per scenario for the
permutations the paper discusses. Scenarios without divergent branches have
no rows in the first file.

    PYTHONPATH=build/python /usr/bin/python3 scripts/compactability_study.py \\
        [--preset fermi] [--size study] [--out results/slp_compactability] [SCENARIO...]
"""
import argparse
import os
import sys

import pandas as pd

import warptlm

SHOWN = ["none", "odd_even", "rev_wid", "flip_odd", "balanced"]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenarios", nargs="*", help="default: every built-in scenario")
    parser.add_argument("--preset", default="fermi")
    parser.add_argument("--size", default="study")
    parser.add_argument("--out", default=os.path.join("results", "slp_compactability"))
    args = parser.parse_args(argv)
    platform = warptlm.Platform(args.preset)
    names = args.scenarios or warptlm.scenarios.list()
    rates, utilisation = [], []
    for name in names:
        analysis = warptlm.compactability(platform, name, size=args.size)
        summary = analysis.summary()
        summary.insert(0, "scenario", name)
        rates.append(summary)
        util = analysis.simd_utilisation().reset_index()
        util.insert(0, "scenario", name)
        utilisation.append(util)
        print(f"{name}: {int(summary['paths'].sum() / max(len(analysis.permutations), 1))} divergent "
              f"CTA-wide paths", file=sys.stderr)
    os.makedirs(args.out, exist_ok=True)
    rates = pd.concat(rates, ignore_index=True)
    utilisation = pd.concat(utilisation, ignore_index=True)
    rates.to_csv(os.path.join(args.out, "compaction_rates.csv"), index=False)
    utilisation.to_csv(os.path.join(args.out, "simd_utilisation.csv"), index=False)

    for branch_class in ("P", "D"):
        part = rates[rates["branch_class"] == branch_class]
        if part.empty:
            continue
        table = part.pivot(index="scenario", columns="permutation", values="compaction_rate")[SHOWN]
        table["ideal"] = part.groupby("scenario")["ideal_compaction_rate"].first()
        table["paths"] = part.groupby("scenario")["paths"].first()
        print(f"\n{branch_class}-branch compaction rate ({args.preset}, size {args.size}):")
        print(table.to_string(float_format=lambda v: f"{v:.3f}"))
        print("mean: " + ", ".join(f"{c} {table[c].mean():.3f}" for c in SHOWN + ["ideal"]))
    util = utilisation.pivot(index="scenario", columns="scheme", values="simd_utilisation")
    print("\nSIMD utilisation:")
    print(util[["no_compaction", "tbc:none", "tbc:balanced", "ideal"]].to_string(
        float_format=lambda v: f"{v:.3f}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
