#!/usr/bin/python3
"""Compaction in the timing model: what TBC, CAPRI and ideal compaction cost and gain on the scenarios.

Runs every built-in scenario in timing mode under each configuration below
(the SLP paper's comparison, Rhu & Erez, ISCA 2013, Figures 14-15, on this
model) and writes ``timing.csv`` (one row per scenario and configuration:
cycles, IPC, SIMD utilisation, warp instructions, the synchronisation and
formation counts, memory instructions and transactions, L1 accesses) and
``summary.csv`` (per configuration: geometric-mean speedup over no compaction,
the harmonic-mean speedup over no compaction and over CAPRI on the Figure 15
benchmarks that exist as scenarios, as the paper averages them, mean SIMD
utilisation, synchronisation-wait cycles per issue and the share of them spent
at conditional branches the whole set took alike, and the L1 transactions and
misses relative to no compaction: the extra traffic compaction causes when it
spreads a static warp's threads over several formed warps).

    PYTHONPATH=build/python /usr/bin/python3 scripts/compaction_timing_study.py \\
        [--preset fermi] [--size study] [--workers 2] [--out results/compaction_timing] \\
        [--set FIELD=VALUE ...] [--configs none,tbc,...] [SCENARIO...]

``--set`` changes the platform under every configuration (a sensitivity:
``--set sm.ctas=1`` allows one CTA per SM), ``--configs`` runs some of them
(``none`` is always among them: the speedups are over it).
"""
import argparse
import math
import os
import sys

import pandas as pd

import warptlm

CONFIGS = [
    ("none", {"compaction": "none"}),
    ("tbc", {"compaction": "tbc"}),
    ("tbc:balanced", {"compaction": "tbc", "permutation": "balanced"}),
    ("capri", {"compaction": "capri"}),
    # Figure 15's permutations, each on top of CAPRI as the paper runs them.
    ("capri:odd_even", {"compaction": "capri", "permutation": "odd_even"}),
    ("capri:rev_wid", {"compaction": "capri", "permutation": "rev_wid"}),
    ("capri:rotate_odd_1", {"compaction": "capri", "permutation": "rotate_odd_1"}),
    ("capri:flip_odd", {"compaction": "capri", "permutation": "flip_odd"}),
    ("capri:balanced", {"compaction": "capri", "permutation": "balanced"}),
    ("ideal", {"compaction": "ideal"}),
    # Not the paper's rule: warps pass the branches the frontend proves CTA-uniform without
    # synchronising (sm.sync_uniform_branches, docs/compaction.md "Uniform branches").
    ("tbc:pass_uniform", {"compaction": "tbc", "sm.sync_uniform_branches": False}),
    ("tbc:balanced:pass_uniform", {"compaction": "tbc", "permutation": "balanced",
                                   "sm.sync_uniform_branches": False}),
    ("capri:pass_uniform", {"compaction": "capri", "sm.sync_uniform_branches": False}),
    ("capri:balanced:pass_uniform", {"compaction": "capri", "permutation": "balanced",
                                     "sm.sync_uniform_branches": False}),
]
# The benchmarks of the SLP paper's Figure 15 that exist as scenarios (BITONIC, BACKP, BFS; MUM,
# DXTC, EIGENVL and the others do not).
FIGURE15 = ["bitonic", "backprop", "bfs"]
COLUMNS = ["scenario", "config", "passed", "cycles", "ipc", "simd_utilisation", "warp_instructions",
           "thread_instructions", "sm.compaction_syncs", "sm.compaction_sync_cycles", "sm.compaction_uniform_syncs",
           "sm.compaction_uniform_sync_cycles", "sm.warp_formations",
           "sm.formed_warps", "sm.capri_bypasses", "sm.memory_instructions", "sm.memory_transactions",
           "sm.compacted_memory_instructions", "sm.compacted_memory_transactions", "sm.l1_hits",
           "sm.l1_misses", "sm.register_bank_conflicts", "sm.slot_control"]


def parse_value(text):
    """A --set value as the configuration field wants it: bool, int, float or string."""
    if text in ("true", "false"):
        return text == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenarios", nargs="*", help="default: every built-in scenario")
    parser.add_argument("--preset", default="fermi")
    parser.add_argument("--size", default="study")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--out", default=os.path.join("results", "compaction_timing"))
    parser.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                        help="a platform field for every configuration (repeatable)")
    parser.add_argument("--configs", default=None,
                        help="comma-separated configuration labels (default: all)")
    args = parser.parse_args(argv)
    overrides = {}
    for item in args.set:
        field, sep, value = item.partition("=")
        if not sep:
            parser.error(f"--set {item}: expected FIELD=VALUE")
        overrides[field] = parse_value(value)
    configs = CONFIGS
    if args.configs:
        wanted = ["none"] + [c for c in args.configs.split(",") if c != "none"]
        known = {label for label, _ in CONFIGS}
        unknown = [c for c in wanted if c not in known]
        if unknown:
            parser.error(f"--configs: unknown {', '.join(unknown)} (known: {', '.join(sorted(known))})")
        configs = [c for c in CONFIGS if c[0] in wanted]
    platform = warptlm.Platform(args.preset, **overrides)
    names = args.scenarios or warptlm.scenarios.list()
    specs = [f"{n}:{args.size}" for n in names]
    frames = []
    for label, fields in configs:
        print(f"{label}: {len(names)} scenarios", file=sys.stderr)
        rows = warptlm.sweep(platform, {k: [v] for k, v in fields.items()}, specs,
                             workers=args.workers, mode="timing", progress=False)
        rows = rows.assign(config=label)
        failed = rows[~rows["passed"].astype(bool)]
        if len(failed):
            print(failed[["scenario", "message", "error"]].to_string(), file=sys.stderr)
            return 1
        frames.append(rows[COLUMNS])
    table = pd.concat(frames, ignore_index=True)
    os.makedirs(args.out, exist_ok=True)
    table.to_csv(os.path.join(args.out, "timing.csv"), index=False)

    base = table[table["config"] == "none"].set_index("scenario")
    capri = table[table["config"] == "capri"].set_index("scenario")
    fig15 = [n for n in FIGURE15 if n in base.index]
    summary = []
    for label, _ in configs:
        part = table[table["config"] == label].set_index("scenario")
        speedup = base["cycles"] / part["cycles"]
        syncs = part["sm.compaction_sync_cycles"].sum()
        summary.append({
            "config": label,
            "speedup_geomean": math.exp(speedup.map(math.log).mean()),
            "speedup_min": speedup.min(),
            "speedup_max": speedup.max(),
            # Figure 15's measure: IPC over no compaction (same instructions, so cycles), harmonic mean
            "figure15_speedup_hmean": len(fig15) / (1 / speedup[fig15]).sum() if fig15 else float("nan"),
            "figure15_vs_capri_hmean": len(fig15) / (part["cycles"][fig15] / capri["cycles"][fig15]).sum()
            if fig15 and len(capri) else float("nan"),
            "simd_utilisation_mean": part["simd_utilisation"].mean(),
            "warp_instructions_vs_none": part["warp_instructions"].sum() / base["warp_instructions"].sum(),
            "sync_wait_cycles_per_issue": syncs / part["warp_instructions"].sum(),
            "uniform_branch_share_of_sync_wait": part["sm.compaction_uniform_sync_cycles"].sum() / syncs
            if syncs else 0.0,
            "transactions_vs_none": part["sm.memory_transactions"].sum() / base["sm.memory_transactions"].sum(),
            "l1_misses_vs_none": part["sm.l1_misses"].sum() / base["sm.l1_misses"].sum(),
            "compacted_memory_share": part["sm.compacted_memory_instructions"].sum()
            / max(part["sm.memory_instructions"].sum(), 1),
            "capri_bypasses": int(part["sm.capri_bypasses"].sum()),
        })
    summary = pd.DataFrame(summary)
    summary.to_csv(os.path.join(args.out, "summary.csv"), index=False)
    pd.set_option("display.width", 200)
    print(summary.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    speed = table.pivot(index="scenario", columns="config", values="cycles")
    speed = speed.rdiv(speed["none"], axis=0)[[label for label, _ in configs]]
    print("\nspeedup over no compaction (cycles):")
    print(speed.to_string(float_format=lambda v: f"{v:.3f}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
