"""Sensitivity of the fermi preset, as a platform architect would run it: warp
size, warp scheduler, SM count and L1 size, one at a time around the preset, in
the timing model (IPDOM stack, no compaction)."""
import os

import pandas as pd

from .common import Section, geomean, plt, save_png, table

NAME = "sensitivity"
TITLE = "Sensitivity of the fermi preset: warp size, scheduler, SM count, L1 size"
# One parameter at a time; the preset's own value is each group's reference.
GROUPS = [
    ("warp_size", [16, 32, 64]),
    ("scheduler", ["lrr", "gto", "two_level", "srr"]),
    ("num_sms", [15, 30, 60]),
    ("memory.l1.size", [16384, 32768, 65536]),
]


def run(ctx):
    import warptlm

    here = ctx.study_dir(NAME)
    preset = warptlm.Platform(ctx.preset).config
    points, seen = [], set()
    for field, values in GROUPS:
        for v in values:
            label = "preset" if _get(preset, field) == v else f"{field}={v}"
            if label not in seen:
                seen.add(label)
                points.append((label, {} if label == "preset" else {field: v}))
    rows = ctx.sweep("sensitivity", points, ctx.names(), mode="timing")
    keep = ["scenario", "config", "cycles", "ipc", "warp_instructions", "simd_utilisation", "sm.l1_hits",
            "sm.l1_misses", "occupancy.warp_occupancy"]
    rows = rows[keep]
    rows.to_csv(os.path.join(here, "runs.csv"), index=False)
    cyc = rows.pivot(index="scenario", columns="config", values="cycles")
    speed = cyc.rdiv(cyc["preset"], axis=0)
    l1 = rows.assign(rate=rows["sm.l1_hits"] / (rows["sm.l1_hits"] + rows["sm.l1_misses"]).clip(lower=1))
    hit = l1.pivot(index="scenario", columns="config", values="rate")
    out = []
    for field, values in GROUPS:
        for v in values:
            label = "preset" if _get(preset, field) == v else f"{field}={v}"
            out.append({"parameter": field, "value": str(v), "speedup_geomean": geomean(speed[label]),
                        "speedup_min": speed[label].min(), "speedup_max": speed[label].max(),
                        "l1_hit_rate_mean": hit[label].mean(),
                        "simd_utilisation_mean": rows[rows["config"] == label]["simd_utilisation"].mean()})
    summary = pd.DataFrame(out)
    summary.index = summary["parameter"] + "=" + summary["value"]
    summary.index.name = "point"
    summary = summary.drop(columns=["parameter", "value"])
    _plot(summary, here)
    s = summary
    text = [
        f"Timing mode, {ctx.preset} preset (IPDOM stack, no compaction), {len(cyc)} scenarios at size {ctx.size}; "
        "one parameter changed at a time, speedup = the preset's cycles / the point's (geomean over scenarios). "
        "Files: `sensitivity/runs.csv`; plot `sensitivity/sensitivity.png`.",
        "",
        table(ctx, NAME, "summary.csv", summary),
        "",
        _findings(summary),
    ]
    return Section(NAME, TITLE, "\n".join(text))


def _findings(summary):
    """The parameters in order of their effect (the spread of their geomeans), each with its points."""
    spreads = []
    for field, values in GROUPS:
        keys = [f"{field}={v}" for v in values]
        geo = summary.loc[keys, "speedup_geomean"]
        spreads.append((geo.max() - geo.min(), field, ", ".join(f"{v} {g:.3f}" for v, g in zip(values, geo))))
    spreads.sort(reverse=True)
    parts = [f"{field} ({points})" for _, field, points in spreads]
    l1 = summary.loc[[f"memory.l1.size={v}" for v in dict(GROUPS)["memory.l1.size"]], "l1_hit_rate_mean"]
    return (f"In order of effect on the geomean: {'; '.join(parts)}. The L1 hit rate goes from {l1.iloc[0]:.3f} "
            f"to {l1.iloc[-1]:.3f} from the smallest L1 to the largest.")


def _get(config, field):
    return config[field]


def _plot(summary, here):
    fig, axes = plt.subplots(1, len(GROUPS), figsize=(13, 3.8), dpi=100, sharey=True)
    for ax, (field, values) in zip(axes, GROUPS):
        keys = [f"{field}={v}" for v in values]
        ax.plot([str(v) for v in values], summary.loc[keys, "speedup_geomean"], marker="o")
        ax.set_title(field)
        ax.grid(True, alpha=0.3)
    axes[0].set_ylabel("speedup over the preset (geomean)")
    save_png(fig, os.path.join(here, "sensitivity.png"))
