"""Run records: what a statistics file says about the run that produced it
(the same layout the C++ CLI writes; docs/statistics.md, "Run records"), and
the gem5-style output folder of a run."""

import json
import os

from . import _core

__all__ = ["run_record", "write_outdir", "outdir_paths", "load_record"]


def run_record(command, mode, out, config, stats, wall_seconds):
    """The record of one run from the native run's dict ``out`` (its kernel,
    launch and, for scenarios, scenario, passed and message)."""
    record = {"warptlm_version": _core.version(), "command": command, "mode": mode,
              "kernel": dict(out["kernel"]),
              "launch": {"grid": list(out["launch"]["grid"]), "block": list(out["launch"]["block"]),
                         "shared_bytes": out["launch"]["shared_bytes"],
                         "cooperative": bool(out["launch"].get("cooperative", False))},
              "config": dict(config), "stats": dict(stats), "wall_seconds": wall_seconds}
    if out.get("scenario") is not None:
        record["scenario"] = dict(out["scenario"])
        record["passed"] = bool(out["passed"])
        record["message"] = out["message"]
    return record


def outdir_paths(outdir, mode, timeline=None, vcd=None):
    """(timeline, vcd) for a run writing into ``outdir``: the given paths, or
    the folder's timeline.json and top.vcd in timing mode. Creates the folder."""
    if outdir is None:
        return timeline, vcd
    os.makedirs(outdir, exist_ok=True)
    if mode == "timing":
        timeline = timeline or os.path.join(outdir, "timeline.json")
        vcd = vcd or os.path.join(outdir, "top.vcd")
    return timeline, vcd


def write_outdir(outdir, record):
    """stats.json (the record), stats.txt and config.json into ``outdir``."""
    with open(os.path.join(outdir, "stats.json"), "w", encoding="utf-8") as f:
        json.dump(record, f, indent=2)
        f.write("\n")
    with open(os.path.join(outdir, "stats.txt"), "w", encoding="utf-8") as f:
        f.write(_core.stats_text(json.dumps(record)))
    with open(os.path.join(outdir, "config.json"), "w", encoding="utf-8") as f:
        json.dump(record["config"], f, indent=2)
        f.write("\n")


def load_record(path):
    """The run record in a stats.json file, or in the stats.json of a run folder."""
    if os.path.isdir(path):
        path = os.path.join(path, "stats.json")
    with open(path, encoding="utf-8") as f:
        record = json.load(f)
    if not isinstance(record, dict) or "config" not in record or "stats" not in record:
        raise ValueError(f"{path}: not a warptlm run record (no 'config' and 'stats')")
    return record
