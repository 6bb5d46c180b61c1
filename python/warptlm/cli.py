"""``python3 -m warptlm``: analyze, run, exec, sweep, list, plot and diff from the shell.

    python3 -m warptlm list [presets|scenarios|schemes|statistics|fields] [--markdown]
    python3 -m warptlm analyze k.ptx [--markers|--lowered] [--reconverging|--reconverging-dot]
    python3 -m warptlm run reduction --preset small --set warp_size=16 --size test [--mode timing]
    python3 -m warptlm exec k.ptx --kernel k --grid 4 --block 256 --arg a.npy --arg i32:1024
    python3 -m warptlm compactability bitonic --preset fermi --size study [--csv paths.csv]
    python3 -m warptlm sweep study.yaml [--workers 2] [--backend dask] [--out r.csv]
    python3 -m warptlm plot study.yaml            (or a results .csv/.db with --x/--y)
    python3 -m warptlm diff RUN_A RUN_B           (two --outdir folders or stats.json files)

``run`` and ``exec`` take the options of the C++ ``warptlm run``/``exec``
with the same meaning (--mode, --preset, --set, --warp-size, --reconvergence,
--budget, --threads, --stats, --trace, --timeline, --vcd, --outdir), and ``list`` prints
the same text. A sweep file (YAML or JSON) holds ``base`` (a preset name, or a
mapping with ``preset`` and fields), ``grid`` ({field: [values]}),
``scenarios`` and optionally ``out`` (relative to the file), ``workers``,
``backend``, ``address``, ``timeout``, ``mode`` (functional or timing),
``breakdown`` (timing: keep per-SM statistics as JSON in a ``breakdown``
column), ``record`` (statistic names or glob patterns to keep) and ``plot``
({x: field, y: [statistics]}).
"""

import argparse
import functools
import json
import os
import subprocess
import sys

import yaml

import warptlm

from . import config as config_api
from .kernel import kernel_names_text
from .records import load_record, write_outdir
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


def cmd_analyze(args):
    print(warptlm._core.analyze_text(args.file, markers=args.markers, lowered=args.lowered,
                                     reconverging=args.reconverging, reconverging_dot=args.reconverging_dot),
          end="")
    return 0


def cmd_list(args):
    print(warptlm._core.list_text(args.what or "", bool(args.markdown)), end="")
    return 0


def _platform(args):
    """The preset with --set overrides, then the --warp-size/--reconvergence/--budget/--threads
    shortcuts, as the C++ CLI applies them."""
    if args.mode not in ("functional", "timing"):
        raise ValueError(f"--mode must be 'functional' or 'timing', got '{args.mode}'")
    if args.mode != "timing" and (args.timeline or args.vcd):
        raise ValueError("--timeline and --vcd need --mode timing")
    overrides = _parse_set(args.set)
    for field, value in (("warp_size", args.warp_size), ("reconvergence", args.reconvergence),
                         ("instruction_budget", args.budget), ("host_threads", args.threads)):
        if value is not None:
            overrides.pop(field, None)
            overrides[field] = value if field == "reconvergence" else yaml.safe_load(value)
    if args.config:
        base = warptlm.Platform.from_file(args.config, default_preset=args.preset)
        return base.with_(**overrides) if overrides else base
    return warptlm.Platform(args.preset, **overrides)


def _print_output(text):
    """What the kernel's printf calls wrote, as the C++ CLI prints it."""
    if text:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
        sys.stdout.flush()


def _print_summary(result, mode):
    """The summary table the C++ CLI prints, line for line."""
    s = result.stats
    rows = [("warps", f"{s['warps']} x {result.config['warp_size']}-lane warps in {s['ctas']} CTAs"),
            ("warp instructions", s["warp_instructions"]), ("thread instructions", s["thread_instructions"]),
            ("conditional branches", f"{s['branches']} ({s['divergent_branches']} divergent)"),
            ("reconvergences", f"{s['reconvergences']} ({s['early_reconvergences']} earlier than the IPDOM)"),
            ("issuable paths", f"mean {s['mean_issuable_paths']:.2f}, max {s['max_issuable_paths']}; "
                               f"peak table entries {s['peak_entries']}"),
            ("SIMD utilisation", f"{100 * s['simd_utilisation']:.2f}% (activity factor "
                                 f"{100 * s['activity_factor']:.2f}%)")]
    if mode == "timing" and s.get("launches", 1) > 1:  # a session: the sum, and the last launch's
        rows.append(("cycles", f"{s['busy_cycles']} in {s['launches']} launches (the last {s['cycles']}), "
                               f"IPC {s['ipc']:.4f} (whole GPU)"))
    elif mode == "timing":
        rows.append(("cycles", f"{s['cycles']}, IPC {s['ipc']:.4f} (whole GPU)"))
    seconds = result.wall_seconds
    rate = s["thread_instructions"] / seconds / 1e6 if seconds > 0 else 0.0
    rows.append(("wall time", f"{seconds:.3f} s ({rate:.1f} M thread instructions/s)"))
    for name, value in rows:
        print(f"  {name:<22} {value}")


def _geometry(record):
    grid, block = record["launch"]["grid"], record["launch"]["block"]
    return f"grid ({','.join(map(str, grid))}) x block ({','.join(map(str, block))})"


def _write_outputs(args, result):
    if args.stats:
        result.save(args.stats)
    if args.trace:
        trace = result.trace.rename(columns={"step": "cycle"}) if result.record["mode"] == "timing" else result.trace
        trace.to_csv(args.trace, index=False)


def cmd_run(args):
    platform = _platform(args)
    size = int(args.size) if args.size.isdigit() else args.size
    params = {"trace": bool(args.trace), "timeline": args.timeline, "vcd": args.vcd, "outdir": args.outdir}
    if args.seed is not None:
        params["seed"] = args.seed
    info = warptlm.scenarios.describe(args.scenario)
    result = warptlm.scenarios.run(platform, args.scenario, size=size, mode=args.mode, **params)
    record = result.record
    print(f"warptlm run {args.scenario}: {info['title']}")
    print(f"  mirrors {info['mirrors']}; size {args.size} (n={result.n}), seed {record['scenario']['seed']}, "
          f"{_geometry(record)}, {result.config['reconvergence']} reconvergence, {args.mode} mode "
          f"(preset {args.preset})")
    _print_output(result.output)
    _print_summary(result, args.mode)
    print(f"  host reference: {'PASS' if result.passed else 'FAIL'} ({result.message})")
    _write_outputs(args, result)
    return 0 if result.passed else 1


def cmd_platform(args):
    size = int(args.size) if args.size.isdigit() else args.size
    result = warptlm.platforms.run(args.platform, args.scenario or None, size=size, seed=args.seed,
                                   mode=args.mode, set=args.set or [], vcd=args.vcd, timeline=args.timeline)
    print(result.summary(), end="")
    if args.stats:
        with open(args.stats, "w") as out:
            json.dump(result.record, out, indent=2)
            out.write("\n")
    return 0 if result.passed else 1


def cmd_elaborate(args):
    output = args.output or ""
    picture = output.endswith((".png", ".svg"))
    text = warptlm.platforms.elaborate(args.platform, "dot" if picture else args.format, mode=args.mode,
                                       set=args.set or [])
    if args.format == "json" and not picture:
        text = json.dumps(text, indent=2) + "\n"
    if not output:
        sys.stdout.write(text)
    elif not picture:
        with open(output, "w") as out:
            out.write(text)
    else:
        drawn = subprocess.run(["dot", f"-T{output[-3:]}", "-o", output], input=text, text=True)
        if drawn.returncode != 0:
            raise RuntimeError(f"Graphviz's dot failed drawing {output} (status {drawn.returncode}; is graphviz "
                               "installed? apt-get install graphviz)")
    return 0


def _exec_args(texts):
    """The launch arguments of --arg texts: .npy files (one array per distinct
    file, written back afterwards) and TYPE:VALUE scalars of the C++ CLI."""
    import numpy as np

    arrays, values = {}, []

    def array(path):
        if path not in arrays:
            arrays[path] = np.load(path, allow_pickle=False)
        return arrays[path]

    for text in texts:
        if warptlm._core.is_image_arg(text):
            path, options = warptlm._core.parse_image_arg(text)
            kind = options.pop("kind")
            try:
                obj = (warptlm.Texture if kind == "texture" else warptlm.Surface)(array(path), **options)
            except (ValueError, TypeError) as exc:
                raise ValueError(f"--arg '{text}': {exc}") from None
            values.append(obj)
        elif text.endswith(".npy"):
            values.append(array(text))
        else:
            values.append(_scalar(text))
    return values, arrays


_DTYPES = {"s8": "i1", "s16": "i2", "s32": "i4", "s64": "i8", "u8": "u1", "u16": "u2", "u32": "u4",
           "u64": "u8", "f32": "f4", "f64": "f8"}


def _scalar(text):
    """"i32:256" -> numpy int32(256), read by the C++ CLI's own parser."""
    import numpy as np

    ptx_type, bits = warptlm._core.parse_scalar(text)
    dtype = np.dtype(_DTYPES[ptx_type])
    return np.array(bits, dtype=f"u{dtype.itemsize}").view(dtype)[()]


def _exec_repeated(args, platform, kernel, grid, block, values, arrays):
    """exec --repeat N: N launches in one session, as the C++ CLI runs them."""
    import numpy as np

    print(f"warptlm exec: kernel {kernel.entry} of {args.file}, grid ({','.join(map(str, grid))}) x block "
          f"({','.join(map(str, block))}), {platform.config['reconvergence']} reconvergence, {args.mode} mode "
          f"(preset {args.preset})")
    print(f"  {args.repeat} launches in one session", flush=True)
    seconds = 0.0
    with platform.session(mode=args.mode) as session:
        for _ in range(args.repeat):
            result = session.launch(kernel, grid, block, values, shared_bytes=args.shared,
                                    cooperative=args.cooperative)
            seconds += result.wall_seconds
            _print_output(result.output)
    result.wall_seconds = seconds
    result.record["command"] = "exec"
    result.record["wall_seconds"] = seconds
    result.record["repeat"] = args.repeat
    for path, array in arrays.items():
        np.save(path, array)
    _print_summary(result, args.mode)
    if arrays:
        print(f"  {len(arrays)} array(s) written back in place")
    _write_outputs(args, result)
    return 0


def cmd_exec(args):
    import numpy as np

    # In the C++ CLI's order, so the first error is the same one.
    platform = _platform(args)
    if not 1 <= args.repeat <= 2**32:  # CLI11's words for the C++ CLI's range check
        sys.stderr.write(f"warptlm exec: --repeat: Value {args.repeat} not in range 1 to {2**32}\n"
                         "Run 'warptlm exec --help' for the options.\n")
        return 2
    if args.repeat > 1 and (args.trace or args.timeline or args.vcd or args.outdir):
        raise ValueError("exec: --repeat runs a session of launches; --trace, --timeline, --vcd and --outdir "
                         "describe a single launch (--stats works)")
    grid = warptlm._core.parse_dim3("--grid", args.grid)
    block = warptlm._core.parse_dim3("--block", args.block)
    values, arrays = _exec_args(args.arg or [])
    ptx = warptlm._core.read_ptx_file(args.file)
    entry = args.kernel
    if entry is None:
        names = [k["name"] for k in warptlm._core.analyze(ptx, args.file)["kernels"]]
        if not names:
            raise ValueError(f"exec: {args.file} has no kernel (.entry)")
        if len(names) > 1:
            raise ValueError(f"exec: {args.file} has {len(names)} kernels ({kernel_names_text(names)}): "
                             "name one with --kernel")
        entry = names[0]
    kernel = warptlm.Kernel(ptx, entry, source_name=args.file)
    if args.repeat > 1:
        return _exec_repeated(args, platform, kernel, grid, block, values, arrays)
    result = platform.launch(kernel, grid, block, values, shared_bytes=args.shared, mode=args.mode,
                             trace=bool(args.trace), timeline=args.timeline, vcd=args.vcd, outdir=args.outdir,
                             cooperative=args.cooperative)
    result.record["command"] = "exec"
    if args.outdir:  # the folder's record says exec too
        write_outdir(args.outdir, result.record)
    for path, array in arrays.items():
        np.save(path, array)
    print(f"warptlm exec: kernel {kernel.entry} of {args.file}, {_geometry(result.record)}, "
          f"{result.config['reconvergence']} reconvergence, {args.mode} mode (preset {args.preset})")
    _print_output(result.output)
    _print_summary(result, args.mode)
    if arrays:
        print(f"  {len(arrays)} array(s) written back in place")
    _write_outputs(args, result)
    return 0


def cmd_diff(args):
    a, b = load_record(args.a), load_record(args.b)
    lines = []
    for key in ("warptlm_version", "command", "mode", "kernel", "launch", "scenario"):
        if a.get(key) != b.get(key):
            lines.append(f"  {key}: {json.dumps(a.get(key))} -> {json.dumps(b.get(key))}")
    for section in ("config", "stats"):
        changed = []
        for name in list(a[section]) + [n for n in b[section] if n not in a[section]]:
            old, new = a[section].get(name), b[section].get(name)
            if old == new:
                continue
            rel = ""
            if isinstance(old, (int, float)) and isinstance(new, (int, float)) and old and section == "stats":
                rel = f" ({100 * (new - old) / abs(old):+.2f}%)"
            changed.append(f"  {name}: {json.dumps(old)} -> {json.dumps(new)}{rel}")
        if changed:
            lines.append(f"{section}: {len(changed)} differ")
            lines += changed
    if not lines:
        print(f"{args.a} and {args.b}: same configuration and statistics")
        return 0
    print(f"--- {args.a}\n+++ {args.b}")
    print("\n".join(lines))
    return 1


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
                           "mode", "breakdown", "record", "platform"}
    if unknown:
        raise SystemExit(f"{path}: unknown keys {', '.join(sorted(unknown))}")
    if spec.get("out"):
        spec["out"] = os.path.join(os.path.dirname(os.path.abspath(path)), spec["out"])
    if "platform" in spec:  # a platform sweep: {name: NAME|FILE, mode: lt|at, set: {NAME: VALUE}}
        p = spec["platform"]
        if not isinstance(p, dict) or "name" not in p or set(p) - {"name", "mode", "set"} or "base" in spec:
            raise SystemExit(f"{path}: platform: must be {{name: NAME|FILE, mode: lt|at, set: {{NAME: VALUE}}}} "
                             "(and replaces base)")
        name = str(p["name"])
        if name.endswith((".yaml", ".yml", ".json")) and not os.path.isabs(name):
            name = os.path.join(os.path.dirname(os.path.abspath(path)), name)
        spec["base"] = warptlm.platforms.Base(name, mode=p.get("mode"), set=p.get("set"))
    return spec


def cmd_sweep(args):
    spec = load_sweep_file(args.file)
    out = args.out or spec.get("out")
    if isinstance(spec.get("base"), warptlm.platforms.Base) and args.mode:
        raise ValueError("--mode: a platform sweep's mode is its platform's (platform: {mode: lt|at})")
    frame = warptlm.sweep(spec.get("base", "small"), spec.get("grid") or {}, spec["scenarios"],
                          workers=args.workers or spec.get("workers"),
                          backend=args.backend or spec.get("backend", "local"),
                          address=args.address or spec.get("address"), out=out, resume=not args.no_resume,
                          timeout=args.timeout if args.timeout is not None else spec.get("timeout"),
                          mode=args.mode or spec.get("mode", "functional"),
                          breakdown=bool(spec.get("breakdown", False)), record=spec.get("record"))
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


def _run_options(p):
    """The options run and exec share, as the C++ CLI names them."""
    p.add_argument("--mode", default="functional", help="functional or timing")
    p.add_argument("--preset", default="small", help="the platform configuration to start from")
    p.add_argument("--config", metavar="FILE",
                   help="start from a configuration file (JSON or YAML: 'preset' and fields; without "
                        "'preset' it starts from --preset); --set and the shortcuts apply on top")
    p.add_argument("--set", action="append", metavar="FIELD=VALUE", help="override a configuration field")
    p.add_argument("--warp-size", metavar="N", help="the same as --set warp_size=N")
    p.add_argument("--reconvergence", metavar="SCHEME", help="the same as --set reconvergence=SCHEME")
    p.add_argument("--budget", metavar="N", help="the same as --set instruction_budget=N")
    p.add_argument("--threads", metavar="N",
                   help="the same as --set host_threads=N (timing: host threads for the SMs; the results "
                        "are the same for every N)")
    p.add_argument("--stats", "--json", dest="stats", metavar="FILE.json",
                   help="write the run record as JSON (version, command, kernel, geometry, configuration, statistics)")
    p.add_argument("--trace", metavar="FILE.csv", help="write the issue trace as CSV")
    p.add_argument("--timeline", metavar="FILE.json", help="timing: write a warp timeline for Perfetto")
    p.add_argument("--vcd", metavar="FILE.vcd", help="timing: write a waveform of the GPU's top-level signals")
    p.add_argument("--outdir", metavar="DIR", help="write config.json, stats.json, stats.txt (and in timing "
                                                    "mode timeline.json, top.vcd) into DIR")


def main(argv=None):
    # No abbreviations (argparse would take --mod for --mode): the C++ CLI takes
    # whole option names only, and both CLIs accept the same command lines.
    parser = argparse.ArgumentParser(prog="python3 -m warptlm", description=__doc__.split("\n\n")[0],
                                     allow_abbrev=False)
    parser.add_argument("--version", action="version", version=f"warptlm {warptlm.__version__}")
    sub = parser.add_subparsers(dest="command", required=True,
                                parser_class=functools.partial(argparse.ArgumentParser, allow_abbrev=False))
    p = sub.add_parser("list", help="presets, scenarios, schemes, statistics (or fields)")
    p.add_argument("what", nargs="?", choices=["presets", "scenarios", "schemes", "statistics", "fields"])
    p.add_argument("--markdown", action="store_true", help="statistics as docs/statistics.md")
    p.set_defaults(func=cmd_list)
    p = sub.add_parser("analyze", help="per kernel and function: basic blocks, and every branch with its PC, "
                                        "reconvergence PC (IPDOM), structured or not, and P/D taint")
    p.add_argument("file", metavar="FILE.ptx")
    form = p.add_mutually_exclusive_group()
    form.add_argument("--markers", action="store_true",
                      help="insert the explicit reconvergence markers (as ppc_explicit runs do)")
    form.add_argument("--lowered", action="store_true",
                      help="analyze the program as exec_mask runs it (lowered to exec masks) and list its code, "
                           "* marking what the lowering wrote")
    p.add_argument("--reconverging", action="store_true",
                   help="also print each function's reconverging CFG (compiler-side reconvergence)")
    p.add_argument("--reconverging-dot", action="store_true",
                   help="print each function's reconverging CFG as a Graphviz digraph instead")
    p.set_defaults(func=cmd_analyze)
    p = sub.add_parser("run", help="run a built-in scenario and check it")
    p.add_argument("scenario")
    p.add_argument("--size", default="test", help="test, study or a size parameter n")
    p.add_argument("--seed", type=int, help="seed of the input generator (default: the platform's seed)")
    _run_options(p)
    p.set_defaults(func=cmd_run)
    p = sub.add_parser("platform", help="elaborate a platform and run scenarios on its GPUs through its host")
    p.add_argument("platform", metavar="NAME|FILE", help="a built-in platform (standalone, soc, multi_gpu) or a "
                                                         ".yaml/.json platform file")
    p.add_argument("--scenario", action="append", metavar="[GPU=]NAME",
                   help="the scenario every GPU the host drives runs, or GPU=SCENARIO (repeatable; default: the "
                        "platform file's jobs)")
    p.add_argument("--size", default="test", help="test, study or a size parameter n")
    p.add_argument("--seed", type=int, help="seed of the input generators (default: each GPU's)")
    p.add_argument("--mode", choices=["lt", "at"], help="coding style of every GPU (default: as described)")
    p.add_argument("--set", action="append", metavar="NAME=VALUE",
                   help="a setting by hierarchical name: gpu0.num_sms=4, ram.latency_ns=20")
    p.add_argument("--stats", metavar="FILE", help="write the run record (every module's statistics) as JSON")
    p.add_argument("--vcd", metavar="FILE", help="write the GPUs' top-level signals as a VCD")
    p.add_argument("--timeline", metavar="FILE.json",
                   help="write a warp timeline for Perfetto (with several GPUs, one file per GPU: FILE.gpu0.json, ...)")
    p.set_defaults(func=cmd_platform)
    p = sub.add_parser("elaborate", help="print what a platform elaborates to (modules, bindings, address maps, "
                                          "configuration)")
    p.add_argument("platform", metavar="NAME|FILE")
    p.add_argument("--format", default="text", choices=["text", "json", "dot"])
    p.add_argument("--mode", choices=["lt", "at"], help="coding style of every GPU")
    p.add_argument("--set", action="append", metavar="NAME=VALUE", help="a setting by hierarchical name")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE; FILE.png or FILE.svg draws it with Graphviz")
    p.set_defaults(func=cmd_elaborate)
    p = sub.add_parser("exec", help="run a kernel of a PTX file")
    p.add_argument("file", metavar="FILE.ptx")
    p.add_argument("--kernel", metavar="NAME", help="the kernel entry to launch (may be left out when the file has one)")
    p.add_argument("--block", required=True, metavar="X[,Y,Z]")
    p.add_argument("--grid", default="1", metavar="X[,Y,Z]")
    p.add_argument("--arg", action="append", metavar="FILE.npy|TYPE:VALUE|texture:FILE.npy,...|surface:FILE.npy,...",
                   help="a kernel argument, in parameter order (repeatable)")
    p.add_argument("--shared", type=int, default=0, metavar="BYTES", help="dynamic shared memory per CTA")
    p.add_argument("--cooperative", action="store_true",
                   help="a cooperative launch: every CTA resident at once, grid.sync() works "
                        "(docs/cooperative-launch.md)")
    p.add_argument("--repeat", type=int, default=1, metavar="N",
                   help="launch the kernel N times in one session: the arrays stay in device memory between "
                        "launches and are written back after the last; statistics count over every launch "
                        "(docs/launch-sessions.md)")
    _run_options(p)
    p.set_defaults(func=cmd_exec)
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
    p.add_argument("--mode", choices=["functional", "timing"], help="overrides the file's 'mode'")
    p.add_argument("--no-resume", action="store_true", help="replace the results file instead of resuming")
    p.set_defaults(func=cmd_sweep)
    p = sub.add_parser("plot", help="PNG charts of a sweep's results")
    p.add_argument("file", help="a sweep file, or a results .csv/.db")
    p.add_argument("--x", help="the swept field on the x axis (default: the sweep's first grid field)")
    p.add_argument("--y", action="append", help="statistic(s) to plot (default: simd_utilisation)")
    p.add_argument("--by", default="scenario", help="comma-separated columns, one line per value")
    p.add_argument("-o", "--output", help="PNG path (with one --y)")
    p.set_defaults(func=cmd_plot)
    p = sub.add_parser("diff", help="what differs between two runs' configuration and statistics")
    p.add_argument("a", metavar="RUN_A", help="an --outdir folder or a stats.json file")
    p.add_argument("b", metavar="RUN_B")
    p.set_defaults(func=cmd_diff)
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (warptlm.KernelError, warptlm.PtxError) as exc:
        _print_output(getattr(exc, "output", ""))  # printf's text before the fault
        print(f"warptlm: kernel fault: {exc}" if isinstance(exc, warptlm.KernelError) else str(exc),
              file=sys.stderr)
        return 1
    except (ValueError, TypeError, FileNotFoundError, NotImplementedError, RuntimeError) as exc:
        print(f"warptlm: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into head
        sys.stderr.close()
        return 0
