"""The traversal taxonomy (Collange & Brunie, CompAS 2017, seed 002): every
reconvergence scheme on every scenario in the timing model (SIMD utilisation,
cycles, peak table occupancy, which finish the spin-lock scenario), and
per-thread PC arbitration (min_pc) against the sorted path list (sorted_list)
as the warp grows, in the work per issue the model can measure."""
import math
import os

import pandas as pd

import warptlm

from .common import Section, geomean, plt, save_png, table

NAME = "taxonomy"
TITLE = "Every reconvergence scheme on every scenario (seed 002's taxonomy)"
WARP_SIZES = [4, 8, 16, 32, 64]
SPIN = "spinlock"
# A scheme that has not finished the spin lock after this many times the IPDOM stack's warp
# instructions livelocks (the runaway-kernel fault ends it; without a budget that takes 2^24
# instructions per warp).
SPIN_BUDGET_FACTOR = 10


def run(ctx):
    here = ctx.study_dir(NAME)
    schemes = ["ipdom"] + [s for s in warptlm.schemes()["reconvergence"] if s != "ipdom"]
    points = [(s, {"reconvergence": s}) for s in schemes]
    names = ctx.names()
    # Every outcome counts here (which schemes finish is part of the study).
    rows = ctx.sweep("taxonomy", points, [n for n in names if n != SPIN], mode="timing", must_pass=False)
    if SPIN in names:
        rows = pd.concat([rows, _spinlock(ctx, points)], ignore_index=True)
    keep = ["scenario", "config", "passed", "error", "cycles", "ipc", "warp_instructions", "simd_utilisation",
            "peak_entries", "divergent_branches", "reconvergences", "early_reconvergences", "table_cycles"]
    rows = rows[keep]
    rows.to_csv(os.path.join(here, "runs.csv"), index=False)
    ok = rows[rows["passed"].astype(bool)]
    cyc = ok.pivot(index="scenario", columns="config", values="cycles")
    util = ok.pivot(index="scenario", columns="config", values="simd_utilisation")
    entries = ok.pivot(index="scenario", columns="config", values="peak_entries")
    both = cyc.dropna()  # scenarios every scheme finished: the speedups compare like with like
    summary = pd.DataFrame([{
        "scheme": s,
        "finished": int(rows[(rows["config"] == s)]["passed"].astype(bool).sum()),
        "speedup_geomean": geomean(both["ipdom"] / both[s]) if s in both else float("nan"),
        "simd_utilisation_mean": util[s].mean() if s in util else float("nan"),
        "peak_entries_max": int(entries[s].max()) if s in entries else 0,
        "peak_entries_mean": entries[s].mean() if s in entries else float("nan"),
        "early_reconvergences": int(ok[ok["config"] == s]["early_reconvergences"].sum()),
    } for s in schemes]).set_index("scheme")
    spin = rows[rows["scenario"] == "spinlock"].set_index("config")
    spin_text = ""
    if len(spin):
        done = [s for s in schemes if s in spin.index and bool(spin.loc[s, "passed"])]
        stuck = [s for s in schemes if s in spin.index and not bool(spin.loc[s, "passed"])]
        spin_text = (f"The spin-lock scenario (lanes of one warp contend for a CTA's lock) finishes under "
                     f"{len(done)} of {len(done) + len(stuck)} schemes"
                     + (f"; not under {', '.join(stuck)}" if stuck else "")
                     + f". A scheme that has not finished after {SPIN_BUDGET_FACTOR} times the IPDOM stack's warp "
                     "instructions is livelocked (its run ends in the runaway-kernel fault). The scenario's form "
                     "is the IPDOM-safe one (the lock is taken inside the loop body); under a min-PC order the lane "
                     "that won the lock waits at a higher PC than the spinning lanes, which therefore run forever "
                     "(docs/reconvergence.md).")

    scaling = _scaling(ctx, here)
    _plot(cyc, util, here)
    text = [
        f"Timing mode, {ctx.preset} preset, {len(ctx.names())} scenarios at size {ctx.size}, every registered "
        "reconvergence scheme (the compiler-side `exec_mask` included). Speedup = IPDOM cycles / the scheme's, "
        f"geomean over the {len(both)} scenarios every scheme finished; peak entries = the largest occupancy "
        "of the scheme's structure (stack entries, ST + RT, HCT + CCT, queued paths; definitions in "
        "`docs/statistics.md`). Files: `taxonomy/runs.csv`, plots `taxonomy/cycles.png`, "
        "`taxonomy/simd_utilisation.png`.",
        "",
        table(ctx, NAME, "summary.csv", summary),
        "",
        _ranking_text(summary, both.rdiv(both["ipdom"], axis=0)),
        "",
        spin_text,
        "",
        "**Per-thread PC arbitration against the sorted list as warps grow** (functional mode; the divergent "
        "scenarios at each warp size). The seed's claim is that a min-PC reduction over the threads scales "
        "worse beyond 8 threads per warp. The model measures it as work per issued warp instruction: "
        "min_pc compares every thread's (call depth, PC) in a tree of warp size - 1 comparators, log2(warp "
        "size) deep, at every issue; the sorted list compares the two hot-context entries and pays cold-table "
        "inserts and extracts only when paths diverge or meet (`cct_accesses_per_issue`, measured):",
        "",
        table(ctx, NAME, "warp_size_scaling.csv", scaling),
        "",
        _scaling_text(scaling),
    ]
    return Section(NAME, TITLE, "\n".join(text))


def _spinlock(ctx, points):
    """Every scheme on the spin lock, with an instruction budget from the IPDOM stack's run."""
    ipdom = ctx.sweep("taxonomy spinlock ipdom", [points[0]], [SPIN], mode="timing")
    budget = SPIN_BUDGET_FACTOR * int(ipdom["warp_instructions"].iloc[0])
    return ctx.sweep("taxonomy spinlock", points, [SPIN], mode="timing", must_pass=False,
                     instruction_budget=budget)


def _ranking_text(summary, speed):
    s = summary.dropna(subset=["speedup_geomean"]).sort_values("speedup_geomean", ascending=False)
    slow = s[s["speedup_geomean"] < 0.98]
    text = (f"Fastest: {s.index[0]} ({s['speedup_geomean'].iloc[0]:.3f}); highest SIMD utilisation: "
            f"{summary['simd_utilisation_mean'].idxmax()} ({summary['simd_utilisation_mean'].max():.3f}, IPDOM "
            f"{summary.loc['ipdom', 'simd_utilisation_mean']:.3f}). ")
    if len(slow):
        text += ("More than 2% slower than the IPDOM stack: " + ", ".join(
            f"{n} {r.speedup_geomean:.3f} (utilisation {r.simd_utilisation_mean:.3f}; worst "
            f"{speed[n].idxmin()} {speed[n].min():.3f})" for n, r in slow.iterrows())
            + ". ")
    if "min_pc" in slow.index and speed["min_pc"].idxmin() == "quasirandom":
        text += ("Orders by minimum PC depend on the code's layout: clang places quasirandom's inner loop "
                 "after the outer loop's header, so lanes that leave the inner loop run ahead at lower PCs "
                 "and meet the others late (`warptlm analyze scenarios/quasirandom/kernel.ptx`: blocks B7-B9 "
                 "after B3). ")
    near = [n for n, r in s.iterrows() if n != "ipdom" and abs(r.speedup_geomean - 1) < 0.01]
    if near:
        text += f"Within 1% of the IPDOM stack: {', '.join(near)}."
    return text


def _scaling_text(scaling):
    lo, hi = scaling.index.min(), scaling.index.max()
    a = scaling.loc[lo, "sorted_list_cct_accesses_per_issue"]
    b = scaling.loc[hi, "sorted_list_cct_accesses_per_issue"]
    same = (scaling["warp_instructions_min_pc_over_sorted"] - 1).abs().max() < 1e-9
    return (f"From warp size {lo} to {hi}, min_pc's comparator tree grows from {scaling.loc[lo, 'min_pc_comparators']} "
            f"to {scaling.loc[hi, 'min_pc_comparators']} comparators evaluated at every issue, while the sorted "
            f"list's cold-table traffic grows from {a:.3f} to {b:.3f} accesses per issue ({b / a:.1f}x for a "
            f"{hi // lo}x wider warp): it follows the number of divergent paths, not the width. Its table, sized "
            f"for one thread per path, does grow with the warp (peak {scaling.loc[lo, 'sorted_list_peak_paths']} to "
            f"{scaling.loc[hi, 'sorted_list_peak_paths']} paths), as the seed says."
            + (" Both orders issue the same warp instructions at every size, so the difference is only the "
               "arbitration hardware's." if same else ""))


def _scaling(ctx, here):
    # The spin lock livelocks under min_pc and sorted_list (above), so it has no count to compare.
    names = [n for n in ctx.names() if n != SPIN
             and warptlm.scenarios.describe(n).get("divergence") not in ([], ["none"])]
    frames = []
    for w in WARP_SIZES:
        points = [(f"{s}:w{w}", {"reconvergence": s}) for s in ("min_pc", "sorted_list")]
        rows = ctx.sweep(f"taxonomy warp {w}", points, names, mode="functional", must_pass=False,
                         warp_size=w, simd_width=min(w, 32))
        rows = rows[rows["passed"].astype(bool)].assign(warp_size=w)
        frames.append(rows)
    rows = pd.concat(frames, ignore_index=True)
    rows["scheme"] = rows["config"].str.split(":").str[0]
    raw = rows[["scenario", "warp_size", "scheme", "warp_instructions", "cct_inserts", "cct_extracts",
                "peak_entries", "activity_factor"]]
    raw.to_csv(os.path.join(here, "warp_size_runs.csv"), index=False)
    out = []
    for w in WARP_SIZES:
        mp = raw[(raw["warp_size"] == w) & (raw["scheme"] == "min_pc")]
        sl = raw[(raw["warp_size"] == w) & (raw["scheme"] == "sorted_list")]
        out.append({
            "warp_size": w,
            "min_pc_comparators": w - 1,
            "min_pc_tree_depth": int(math.log2(w)),
            "min_pc_peak_groups": int(mp["peak_entries"].max()) if len(mp) else 0,
            "sorted_list_cct_accesses_per_issue": (sl["cct_inserts"].sum() + sl["cct_extracts"].sum())
            / max(sl["warp_instructions"].sum(), 1),
            "sorted_list_peak_paths": int(sl["peak_entries"].max()) if len(sl) else 0,
            "warp_instructions_min_pc_over_sorted": mp["warp_instructions"].sum()
            / max(sl["warp_instructions"].sum(), 1),
        })
    return pd.DataFrame(out).set_index("warp_size")


def _plot(cyc, util, here):
    for frame, name, label in ((cyc.rdiv(cyc["ipdom"], axis=0), "cycles.png", "speedup over ipdom"),
                               (util, "simd_utilisation.png", "SIMD utilisation")):
        fig, ax = plt.subplots(figsize=(12, 4.5), dpi=100)
        frame.plot.bar(ax=ax, width=0.9)
        ax.set_ylabel(label)
        ax.set_title(f"Reconvergence schemes: {label} (timing mode)")
        ax.legend(fontsize="x-small", ncol=5)
        save_png(fig, os.path.join(here, name))
