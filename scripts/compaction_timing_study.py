#!/usr/bin/python3
"""Compaction in the timing model: what TBC, CAPRI and ideal compaction cost and gain on the scenarios.

Runs every built-in scenario in timing mode under each configuration below
(the SLP paper's comparison, Rhu & Erez, ISCA 2013, Figures 14-15, on this
model) and writes ``timing.csv`` (one row per scenario and configuration:
cycles, IPC, SIMD utilisation, warp instructions, the synchronisation and
formation counts, memory instructions and transactions, L1 accesses) and
``summary.csv`` (per configuration: geometric-mean speedup over no compaction,
mean SIMD utilisation, total synchronisation-wait cycles per formed-warp issue,
and the L1 transactions relative to no compaction: the extra traffic
compaction causes when it spreads a static warp's threads over several formed
warps).

    PYTHONPATH=build/python /usr/bin/python3 scripts/compaction_timing_study.py \\
        [--preset fermi] [--size study] [--workers 2] [--out results/compaction_timing] [SCENARIO...]
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
    ("capri:balanced", {"compaction": "capri", "permutation": "balanced"}),
    ("ideal", {"compaction": "ideal"}),
]
COLUMNS = ["scenario", "config", "passed", "cycles", "ipc", "simd_utilisation", "warp_instructions",
           "thread_instructions", "sm.compaction_syncs", "sm.compaction_sync_cycles", "sm.warp_formations",
           "sm.formed_warps", "sm.capri_bypasses", "sm.memory_instructions", "sm.memory_transactions",
           "sm.compacted_memory_instructions", "sm.compacted_memory_transactions", "sm.l1_hits",
           "sm.l1_misses", "sm.register_bank_conflicts", "sm.slot_control"]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenarios", nargs="*", help="default: every built-in scenario")
    parser.add_argument("--preset", default="fermi")
    parser.add_argument("--size", default="study")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--out", default=os.path.join("results", "compaction_timing"))
    args = parser.parse_args(argv)
    names = args.scenarios or warptlm.scenarios.list()
    specs = [f"{n}:{args.size}" for n in names]
    frames = []
    for label, fields in CONFIGS:
        print(f"{label}: {len(names)} scenarios", file=sys.stderr)
        rows = warptlm.sweep(warptlm.Platform(args.preset), {k: [v] for k, v in fields.items()}, specs,
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
    summary = []
    for label, _ in CONFIGS:
        part = table[table["config"] == label].set_index("scenario")
        speedup = base["cycles"] / part["cycles"]
        summary.append({
            "config": label,
            "speedup_geomean": math.exp(speedup.map(math.log).mean()),
            "speedup_min": speedup.min(),
            "speedup_max": speedup.max(),
            "simd_utilisation_mean": part["simd_utilisation"].mean(),
            "warp_instructions_vs_none": part["warp_instructions"].sum() / base["warp_instructions"].sum(),
            "sync_wait_cycles_per_issue": part["sm.compaction_sync_cycles"].sum() / part["warp_instructions"].sum(),
            "transactions_vs_none": part["sm.memory_transactions"].sum() / base["sm.memory_transactions"].sum(),
            "compacted_memory_share": part["sm.compacted_memory_instructions"].sum()
            / max(part["sm.memory_instructions"].sum(), 1),
            "capri_bypasses": int(part["sm.capri_bypasses"].sum()),
        })
    summary = pd.DataFrame(summary)
    summary.to_csv(os.path.join(args.out, "summary.csv"), index=False)
    pd.set_option("display.width", 200)
    print(summary.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    speed = table.pivot(index="scenario", columns="config", values="cycles")
    speed = speed.rdiv(speed["none"], axis=0)[[label for label, _ in CONFIGS]]
    print("\nspeedup over no compaction (cycles):")
    print(speed.to_string(float_format=lambda v: f"{v:.3f}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
