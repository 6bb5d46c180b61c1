"""SLP paper, Figures 11, 12 and 14: compaction rate of P- and D-branches per lane
permutation with TBC and ideal compaction, the P-branch breakdown by the fraction
of the CTA's threads active, and SIMD utilisation per permutation, from the
functional executor's compactability analysis (one lockstep pass per scenario
measures every permutation)."""
import os

import pandas as pd

import warptlm
from warptlm.compaction import compaction_rates

from .common import Section, plt, save_png, table

NAME = "slp_compactability"
TITLE = "Compactability and SIMD utilisation per lane permutation (SLP paper, Figures 11, 12, 14)"

SHOWN = ["none", "odd_even", "rev_wid", "flip_odd", "balanced"]
# The paper's Figure 11 means (P over its 10 benchmarks with compactable P-branches, D over 9)
# and Figure 14 (SIMD utilisation of Balanced relative to no compaction and to TBC).
PAPER_RATES = {"P": {"none": 0.032, "odd_even": 0.289, "rev_wid": 0.528, "balanced": 0.715, "ideal": 0.727},
               "D": {"none": 0.425, "ideal": 0.644}}
PAPER_UTIL = {"balanced_over_none": 1.113, "balanced_over_tbc": 1.071, "balanced_over_tbc_max": 1.34,
              "odd_even_over_none": 1.06, "odd_even_over_tbc": 1.021}


def _analysis(ctx, name):
    """The analysis of one scenario, from the cache when a finished run left it there."""
    folder = os.path.join(ctx.cache, f"compactability-{ctx.preset}-{ctx.size}")
    paths_file = os.path.join(folder, f"{name}.paths.csv")
    util_file = os.path.join(folder, f"{name}.util.csv")
    if os.path.exists(paths_file) and os.path.exists(util_file):
        return pd.read_csv(paths_file), pd.read_csv(util_file), True
    analysis = warptlm.compactability(warptlm.Platform(ctx.preset), name, size=ctx.size)
    paths = analysis.paths.assign(scenario=name)
    util = analysis.simd_utilisation().reset_index().assign(scenario=name)
    os.makedirs(folder, exist_ok=True)
    # Written whole, then renamed: a killed run leaves no half file to resume from.
    for frame, target in ((paths, paths_file), (util, util_file)):
        frame.to_csv(target + ".part", index=False)
        os.replace(target + ".part", target)
    return paths, util, False


def run(ctx):
    from tqdm import tqdm

    here = ctx.study_dir(NAME)
    names = ctx.names()
    all_paths, all_util, cached = [], [], 0
    for name in tqdm(names, desc="slp_compactability", unit="scenario", disable=not ctx.progress):
        paths, util, hit = _analysis(ctx, name)
        all_paths.append(paths)
        all_util.append(util)
        cached += hit
    ctx.counted("slp_compactability", len(names), cached)
    paths = pd.concat(all_paths, ignore_index=True)
    util = pd.concat(all_util, ignore_index=True)

    rates = compaction_rates(paths, ["scenario", "branch_class", "permutation"])
    rates.to_csv(os.path.join(here, "compaction_rates.csv"), index=False)
    activity = compaction_rates(paths, ["scenario", "branch_class", "activity", "permutation"])
    activity.to_csv(os.path.join(here, "compaction_by_activity.csv"), index=False)
    util = util[["scenario", "scheme", "warp_instructions", "simd_utilisation"]]
    util.to_csv(os.path.join(here, "simd_utilisation.csv"), index=False)

    # Figure 11: mean over the scenarios that have such branches.
    fig11 = []
    for branch_class in ("P", "D"):
        part = rates[rates["branch_class"] == branch_class]
        if part.empty:
            continue
        wide = part.pivot(index="scenario", columns="permutation", values="compaction_rate")
        row = {"branch_class": branch_class, "scenarios": len(wide)}
        row.update({p: wide[p].mean() for p in SHOWN if p in wide})
        row["ideal"] = part.groupby("scenario")["ideal_compaction_rate"].first().mean()
        fig11.append(row)
        paper = PAPER_RATES[branch_class]
        fig11.append({"branch_class": f"{branch_class} (paper)", "scenarios": 15 if branch_class == "P" else 9,
                      **{p: paper.get(p, float("nan")) for p in SHOWN + ["ideal"]}})
    fig11 = pd.DataFrame(fig11).set_index("branch_class")
    if len(fig11):
        fig11["scenarios"] = fig11["scenarios"].astype(int)

    # Figure 12: of all P-branch paths of a scenario, the share per activity bucket that the
    # permutation compacted and the share only ideal compaction would; then the mean over scenarios.
    p_paths = paths[paths["branch_class"] == "P"]
    fig12 = pd.DataFrame()
    if not p_paths.empty:
        per = p_paths.groupby(["scenario", "permutation", "activity"])[
            ["paths", "tbc_compacted", "ideal_compacted"]].sum()
        totals = p_paths.groupby(["scenario", "permutation"])["paths"].sum()
        whole = totals.reindex(per.index.droplevel("activity")).values  # the scenario's P paths
        share = pd.DataFrame(index=per.index)
        share["compacted"] = per["tbc_compacted"] / whole
        share["missed"] = (per["ideal_compacted"] - per["tbc_compacted"]).clip(lower=0) / whole
        mean = share.groupby(["permutation", "activity"])[["compacted", "missed"]].mean().reset_index()
        keep = [p for p in ["none", "odd_even", "rev_wid", "balanced"] if p in set(mean["permutation"])]
        mean = mean[mean["permutation"].isin(keep)]
        fig12 = mean.pivot(index="permutation", columns="activity", values=["compacted", "missed"])
        fig12.columns = [f"{kind} {bucket}" for kind, bucket in fig12.columns]
        fig12 = fig12.reindex(keep)

    # Figure 14: SIMD utilisation per scheme, mean over the scenarios; gains over none and TBC.
    wide = util.pivot(index="scenario", columns="scheme", values="simd_utilisation")
    schemes = ["no_compaction"] + [f"tbc:{p}" for p in SHOWN] + ["ideal"]
    fig14 = pd.DataFrame({
        "simd_utilisation": wide[schemes].mean(),
        "over_no_compaction": (wide[schemes].div(wide["no_compaction"], axis=0)).mean(),
        "over_tbc": (wide[schemes].div(wide["tbc:none"], axis=0)).mean(),
        "over_tbc_max": (wide[schemes].div(wide["tbc:none"], axis=0)).max(),
    })
    fig14.index.name = "scheme"

    _plots(fig11, fig12, wide[schemes], here)
    f = fig11
    text = [
        f"Functional mode, {ctx.preset} preset, {len(names)} scenarios at size {ctx.size}. Files: "
        "`slp_compactability/compaction_rates.csv` (per scenario, branch class, permutation), "
        "`compaction_by_activity.csv` (the same by fraction of the CTA's threads active in the path), "
        "`simd_utilisation.csv`; plots `figure11.png`, `figure12.png`, `figure14.png`. Definitions: "
        "`docs/compaction.md`.",
        "",
        "**Figure 11**, compaction rate (share of the dynamic CTA-wide paths of divergent branches whose "
        "warps compaction reduces), mean over the scenarios with such branches; the paper's means under them:",
        "",
        table(ctx, NAME, "figure11.csv", f),
        "",
    ]
    if "P" in f.index and "balanced" in f.columns:
        best = max((p for p in SHOWN if p != "none" and p in f.columns), key=lambda p: f.loc["P", p])
        weakest = min((p for p in SHOWN if p != "none" and p in f.columns), key=lambda p: f.loc["P", p])
        text += [
            f"As in the paper, TBC without permutation compacts few P-branch paths ({f.loc['P', 'none']:.3f}; "
            f"paper {PAPER_RATES['P']['none']:.3f}), the best permutation is {best} ({f.loc['P', best]:.3f} "
            f"against the ideal {f.loc['P', 'ideal']:.3f}; paper: Balanced, {PAPER_RATES['P']['balanced']:.3f} of "
            f"{PAPER_RATES['P']['ideal']:.3f}); the weakest permutation is {weakest} ({f.loc['P', weakest]:.3f}; "
            f"the paper's is Odd_Even, {PAPER_RATES['P']['odd_even']:.3f}). The ideal rate itself is lower than the "
            "paper's: these are the model's own kernels, several of whose P-branches split a CTA along warp "
            "boundaries (as reduction's `tid < s` does for s of 32 or more), which no compaction improves.",
            "",
        ]
    if not fig12.empty:
        high = fig12[[c for c in fig12.columns if c in ("missed 50-75%", "missed 75-100%")]].sum(axis=1)
        text += [
            "**Figure 12**, P-branch paths by the fraction of the CTA's threads active in the path: the share "
            "of all P-branch paths compacted (and missed: compactable by ideal compaction but not by the "
            "permutation), mean over the scenarios:",
            "",
            table(ctx, NAME, "figure12.csv", fig12),
            "",
            "Paths with half or more of the CTA's threads active that a permutation leaves uncompacted "
            "although ideal compaction would compact them: "
            + ", ".join(f"{p} {high[p]:.3f}" for p in fig12.index)
            + " of all P-branch paths. The paper's Figure 12 reports the same pattern: Rev_WID misses "
            "significant opportunities when half or more of the threads are active, Balanced few or none.",
            "",
        ]
    text += [
        "**Figure 14**, SIMD utilisation (mean over scenarios) and its mean ratio to no compaction and "
        "to TBC without permutation (with the largest ratio to TBC):",
        "",
        table(ctx, NAME, "figure14.csv", fig14),
        "",
        f"Paper: Balanced {PAPER_UTIL['balanced_over_none']:.3f} over no compaction, "
        f"{PAPER_UTIL['balanced_over_tbc']:.3f} (max {PAPER_UTIL['balanced_over_tbc_max']:.2f}) over TBC; "
        f"Odd_Even {PAPER_UTIL['odd_even_over_none']:.3f} and {PAPER_UTIL['odd_even_over_tbc']:.3f}. Here "
        f"Balanced {fig14.loc['tbc:balanced', 'over_no_compaction']:.3f} and "
        f"{fig14.loc['tbc:balanced', 'over_tbc']:.3f} (max {fig14.loc['tbc:balanced', 'over_tbc_max']:.2f}), "
        f"Odd_Even {fig14.loc['tbc:odd_even', 'over_no_compaction']:.3f} and "
        f"{fig14.loc['tbc:odd_even', 'over_tbc']:.3f}.",
    ]
    return Section(NAME, TITLE, "\n".join(text))


def _plots(fig11, fig12, util, here):
    measured = fig11[~fig11.index.str.contains("paper")]
    cols = [c for c in SHOWN + ["ideal"] if c in measured.columns]
    fig, ax = plt.subplots(figsize=(8, 4), dpi=100)
    width = 0.8 / max(len(cols), 1)
    for i, c in enumerate(cols):
        ax.bar([x + i * width for x in range(len(measured))], measured[c], width, label=c)
    ax.set_xticks([x + 0.4 - width / 2 for x in range(len(measured))])
    ax.set_xticklabels([f"{b}-branches" for b in measured.index])
    ax.set_ylabel("compaction rate (mean over scenarios)")
    ax.set_title("SLP Figure 11 on the scenarios")
    ax.legend(fontsize="small")
    save_png(fig, os.path.join(here, "figure11.png"))

    if not fig12.empty:
        fig, ax = plt.subplots(figsize=(8, 4), dpi=100)
        bottom = [0.0] * len(fig12)
        for c in fig12.columns:
            ax.bar(fig12.index, fig12[c], bottom=bottom, label=c)
            bottom = [b + v for b, v in zip(bottom, fig12[c])]
        ax.set_ylabel("share of P-branch paths")
        ax.set_title("SLP Figure 12 on the scenarios: compacted / missed by active fraction")
        ax.legend(fontsize="x-small", ncol=2)
        save_png(fig, os.path.join(here, "figure12.png"))

    fig, ax = plt.subplots(figsize=(10, 4.5), dpi=100)
    util.plot.bar(ax=ax, width=0.85)
    ax.set_ylabel("SIMD utilisation")
    ax.set_ylim(0, 1)
    ax.set_title("SLP Figure 14 on the scenarios")
    ax.legend(fontsize="x-small", ncol=4)
    save_png(fig, os.path.join(here, "figure14.png"))
