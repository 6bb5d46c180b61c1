"""``python3 -m warptlm``: run, sweep, list and plot from the shell.

    python3 -m warptlm list [presets|scenarios|schemes|statistics|fields]
    python3 -m warptlm run reduction --preset small --set warp_size=16 --size test
    python3 -m warptlm compactability bitonic --preset fermi --size study [--csv paths.csv]
    python3 -m warptlm sweep study.yaml [--workers 2] [--backend dask] [--out r.csv]
    python3 -m warptlm plot study.yaml            (or a results .csv/.db with --x/--y)

A sweep file (YAML or JSON) holds ``base`` (a preset name, or a mapping with
``preset`` and fields), ``grid`` ({field: [values]}), ``scenarios`` and
optionally ``out`` (relative to the file), ``workers``, ``backend``,
``address``, ``timeout``, ``mode`` (functional or timing), ``breakdown`` (timing:
keep per-SM statistics as JSON in a ``breakdown`` column) and ``plot``
({x: field, y: [statistics]}).
"""

import argparse
import json
import os
import sys

import yaml

import warptlm

from . import config as config_api
from .store import read_results


def _parse_set(items):
    """["a.b=16", ...] -> {"a.b": 16}; values are read as YAML scalars."""
    out = {}
    for item in items or []:
        name, sep, value = item.partition("=")
        if not sep:
            raise SystemExit(f"--set takes FIELD=VALUE, got {item!r}")
        out[name] = yaml.safe_load(value)
    return out


def cmd_list(args):
    sections = [args.what] if args.what else ["presets", "scenarios", "schemes", "statistics"]
    for section in sections:
        print(f"{section}:")
        if section == "presets":
            for name, doc in config_api.preset_docs().items():
                print(f"  {name:<8} {doc}")
        elif section == "scenarios":
            for name in warptlm.scenarios.list():
                info = warptlm.scenarios.describe(name)
                print(f"  {name:<16} {info['title']} [{', '.join(info['divergence'])}]")
        elif section == "schemes":
            for kind, names in warptlm.schemes().items():
                print(f"  {kind:<14} {', '.join(names)}")
        elif section == "statistics":
            for name, meaning in warptlm.statistics().items():
                print(f"  {name:<20} {meaning}")
        elif section == "fields":
            for f in warptlm.fields():
                mode = "" if f["functional"] else "  (timing)"
                print(f"  {f['name']:<24} {f['type']:<6} default {json.dumps(f['default']):<10} "
                      f"{f['doc']}; {f['describe']}{mode}")
        print()
    return 0


def cmd_run(args):
    platform = warptlm.Platform(args.preset, **_parse_set(args.set))
    size = int(args.size) if args.size.isdigit() else args.size
    params = {"trace": bool(args.trace)}
    if args.seed is not None:
        params["seed"] = args.seed
    result = warptlm.scenarios.run(platform, args.scenario, size=size, **params)
    print(f"warptlm run {args.scenario} (n={result.n}) on {platform!r}")
    for name, value in result.stats.items():
        print(f"  {name:<22} {value:.4f}" if isinstance(value, float) else f"  {name:<22} {value}")
    print(f"  {'wall seconds':<22} {result.wall_seconds:.4f} (total {result.total_seconds:.4f})")
    print(f"  host reference: {'PASS' if result.passed else 'FAIL'} ({result.message})")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"scenario": args.scenario, "n": result.n, "passed": result.passed, "config": result.config,
                       "stats": result.stats, "wall_seconds": result.wall_seconds}, f, indent=2)
    if args.trace:
        result.trace.to_csv(args.trace, index=False)
    return 0 if result.passed else 1


def cmd_compactability(args):
    platform = warptlm.Platform(args.preset, **_parse_set(args.set))
    size = int(args.size) if args.size.isdigit() else args.size
    analysis = warptlm.compactability(platform, args.scenario, size=size, seed=args.seed)
    print(f"warptlm compactability {args.scenario} on {platform!r} (warp size {analysis.warp_size})")
    summary = analysis.summary()
    if summary.empty:
        print("  no divergent branch: nothing to compact")
    else:
        print("compaction rate per branch class (P programmatic, D data-dependent) and permutation:")
        print(summary.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    print("SIMD utilisation over every lockstep instruction:")
    print(analysis.simd_utilisation().to_string(float_format=lambda v: f"{v:.4f}"))
    if args.csv:
        analysis.paths.to_csv(args.csv, index=False)
        print(f"wrote {args.csv}")
    return 0


def load_sweep_file(path):
    """The sweep file as a dict, with ``out`` resolved against its folder."""
    with open(path, encoding="utf-8") as f:
        spec = json.load(f) if path.endswith(".json") else yaml.safe_load(f)
    if not isinstance(spec, dict) or "scenarios" not in spec:
        raise SystemExit(f"{path}: a sweep file needs at least 'scenarios' (and usually 'base' and 'grid')")
    unknown = set(spec) - {"base", "grid", "scenarios", "out", "workers", "backend", "address", "timeout", "plot",
                           "mode", "breakdown"}
    if unknown:
        raise SystemExit(f"{path}: unknown keys {', '.join(sorted(unknown))}")
    if spec.get("out"):
        spec["out"] = os.path.join(os.path.dirname(os.path.abspath(path)), spec["out"])
    return spec


def cmd_sweep(args):
    spec = load_sweep_file(args.file)
    out = args.out or spec.get("out")
    frame = warptlm.sweep(spec.get("base", "small"), spec.get("grid") or {}, spec["scenarios"],
                          workers=args.workers or spec.get("workers"),
                          backend=args.backend or spec.get("backend", "local"),
                          address=args.address or spec.get("address"), out=out, resume=not args.no_resume,
                          timeout=args.timeout or spec.get("timeout"), mode=spec.get("mode", "functional"),
                          breakdown=bool(spec.get("breakdown", False)))
    failed = frame[~frame["passed"].astype(bool)]
    print(f"warptlm sweep: {len(frame)} runs, {len(frame) - len(failed)} passed"
          + (f", results in {out}" if out else ""))
    for _, row in failed.iterrows():
        print(f"  FAILED {row['scenario']} {row['key']}: {row['error'] or row['message']}")
    return 0 if failed.empty else 1


def cmd_plot(args):
    source = args.file
    x, ys = args.x, args.y
    if source.endswith((".yaml", ".yml", ".json")):
        spec = load_sweep_file(source)
        if not spec.get("out"):
            raise SystemExit(f"{source}: the sweep file names no 'out' results file to plot")
        plot = spec.get("plot") or {}
        x = x or plot.get("x") or next(iter(spec.get("grid") or {}), None)
        ys = ys or ([plot["y"]] if isinstance(plot.get("y"), str) else plot.get("y"))
        source = spec["out"]
    if not x:
        raise SystemExit("plot needs --x FIELD (or a sweep file with a grid)")
    ys = ys or ["simd_utilisation"]
    from . import plot as plotting  # matplotlib only when plotting

    frame = read_results(source)
    stem = os.path.splitext(args.output or source)[0]
    for y in ys:
        path = args.output if args.output and len(ys) == 1 else f"{stem}_{y}.png"
        plotting.plot_results(frame, x.replace("__", "."), y, path, by=tuple(args.by.split(",")))
        print(f"wrote {path}")
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m warptlm", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("list", help="presets, scenarios, schemes, statistics (or fields)")
    p.add_argument("what", nargs="?", choices=["presets", "scenarios", "schemes", "statistics", "fields"])
    p.set_defaults(func=cmd_list)
    p = sub.add_parser("run", help="run a built-in scenario and check it")
    p.add_argument("scenario")
    p.add_argument("--preset", default="small")
    p.add_argument("--set", action="append", metavar="FIELD=VALUE", help="override a configuration field")
    p.add_argument("--size", default="test", help="test, study or a size parameter n")
    p.add_argument("--seed", type=int)
    p.add_argument("--json", help="write config, statistics and verdict as JSON")
    p.add_argument("--trace", help="write the issue trace as CSV")
    p.set_defaults(func=cmd_run)
    p = sub.add_parser("compactability", help="the SLP paper's compactability analysis of a scenario")
    p.add_argument("scenario")
    p.add_argument("--preset", default="small")
    p.add_argument("--set", action="append", metavar="FIELD=VALUE", help="override a configuration field")
    p.add_argument("--size", default="test", help="test, study or a size parameter n")
    p.add_argument("--seed", type=int)
    p.add_argument("--csv", help="write the per-branch path counts as CSV")
    p.set_defaults(func=cmd_compactability)
    p = sub.add_parser("sweep", help="run a sweep file (YAML or JSON)")
    p.add_argument("file")
    p.add_argument("--out", help="results file (.csv, or .db for SQLite); overrides the file's 'out'")
    p.add_argument("--workers", type=int)
    p.add_argument("--backend", choices=["local", "dask"])
    p.add_argument("--address", help="dask scheduler address")
    p.add_argument("--timeout", type=float, help="seconds per run")
    p.add_argument("--no-resume", action="store_true", help="replace the results file instead of resuming")
    p.set_defaults(func=cmd_sweep)
    p = sub.add_parser("plot", help="PNG charts of a sweep's results")
    p.add_argument("file", help="a sweep file, or a results .csv/.db")
    p.add_argument("--x", help="the swept field on the x axis (default: the sweep's first grid field)")
    p.add_argument("--y", action="append", help="statistic(s) to plot (default: simd_utilisation)")
    p.add_argument("--by", default="scenario", help="comma-separated columns, one line per value")
    p.add_argument("-o", "--output", help="PNG path (with one --y)")
    p.set_defaults(func=cmd_plot)
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (ValueError, TypeError, FileNotFoundError, warptlm.KernelError, NotImplementedError,
            RuntimeError) as exc:
        print(f"warptlm: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into head
        sys.stderr.close()
        return 0
