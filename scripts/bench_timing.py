#!/usr/bin/python3
"""Timing-model speed on the scenario suite, against functional mode.

Runs every built-in scenario (or those named) at the given size through
`warptlm run --mode timing` for each preset, one process per run (SystemC
elaborates once per process), and through `--mode functional`, and prints
simulated warp instructions per host second, the timing/functional speed
ratio, simulated cycles per host second and each run's peak memory. A
benchmark, not a test: it asserts nothing but that every run passes its host
reference, and prints figures.

    /usr/bin/python3 scripts/bench_timing.py [--size study] [--preset small --preset fermi]
        [--build build [--build other]] [--threads 1 --threads 2] [--repeat 1] [--json FILE]
        [SCENARIO...]

Speeds are per host thread unless --threads says otherwise (the timing model's
host_threads, docs/parallel-sms.md; several --threads values give a scaling
curve), and the time is the `wall_seconds` the CLI measures around the
simulation alone (not parsing, data generation or the reference check). Run it on an otherwise idle machine,
or with --repeat N (best of N), for clean figures. With several --build
directories (before and after a change) every run alternates between them,
so a change in the machine's load hits all of them alike, and a last line
compares each build's suite speed with the first one's; so do several
--threads values (every build on every thread count).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def scenario_names(cli):
    out = subprocess.run([cli, "list", "scenarios"], check=True, capture_output=True, text=True).stdout
    return [line.split()[0] for line in out.splitlines()[1:] if line[2:3].strip()]


def run_once(cli, name, size, mode, preset, threads=None):
    """One run in its own process; returns its stats plus its peak RSS (MB) as _rss_mb."""
    cmd = [cli, "run", name, "--size", size, "--mode", mode]
    if mode == "timing":
        cmd += ["--preset", preset]
    if threads:
        cmd += ["--threads", str(threads)]
    with tempfile.NamedTemporaryFile(suffix=".json") as f, tempfile.TemporaryFile("w+") as log:
        proc = subprocess.Popen(cmd + ["--stats", f.name], stdout=log, stderr=subprocess.STDOUT)
        # Reap the child ourselves: wait4's rusage is exactly this run's peak RSS.
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            log.seek(0)
            sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{log.read()}")
        with open(f.name) as j:
            record = json.load(j)
        stats = dict(record["stats"], wall_seconds=record["wall_seconds"])
    stats["_rss_mb"] = usage.ru_maxrss / 1024.0  # ru_maxrss is in KiB on Linux
    return stats


def best_of(cli, name, size, mode, preset, repeat):
    runs = [run_once(cli, name, size, mode, preset) for _ in range(repeat)]
    return min(runs, key=lambda s: s["wall_seconds"])


def best_of_each(variants, name, size, preset, repeat):
    """Timing runs of every (cli, threads) variant, alternating; the fastest run of each."""
    best = [None] * len(variants)
    for _ in range(repeat):
        for i, (cli, threads) in enumerate(variants):
            s = run_once(cli, name, size, "timing", preset, threads)
            if best[i] is None or s["wall_seconds"] < best[i]["wall_seconds"]:
                best[i] = s
    return best


def table(report, preset, build, size, names, timed, functional, name_build):
    """Prints one build's table for `preset`, adds its runs to `report`; returns its suite speed."""
    print(f"\npreset {preset}, size {size}" + (f", build {build}" if name_build else ""))
    print(f"{'scenario':<16}{'warp instr':>12}{'cycles':>12}{'seconds':>9}{'M warp/s':>10}"
          f"{'k cyc/s':>9}{'func M/s':>10}{'t/f':>7}{'RSS MB':>8}")
    tw = ts = tfw = tfs = 0.0
    peak = 0.0
    for name in names:
        s = timed[name]
        w, sec, cyc = s["warp_instructions"], s["wall_seconds"], s.get("cycles", 0)
        f = functional.get(name)
        fspeed = f["warp_instructions"] / f["wall_seconds"] if f else None
        rss = s["_rss_mb"]
        peak = max(peak, rss)
        tw, ts = tw + w, ts + sec
        if f:
            tfw, tfs = tfw + f["warp_instructions"], tfs + f["wall_seconds"]
        ratio = (w / sec) / fspeed if fspeed else None
        print(f"{name:<16}{w:>12,}{cyc:>12,}{sec:>9.3f}{w / sec / 1e6:>10.3f}"
              f"{cyc / sec / 1e3:>9.0f}"
              f"{(fspeed or 0) / 1e6:>10.2f}{(ratio or 0):>7.3f}{rss:>8.1f}")
        report["runs"].append({
            "scenario": name, "preset": preset, "build": build,
            "warp_instructions": w, "cycles": cyc,
            "wall_seconds": sec, "warp_per_second": w / sec, "peak_rss_mb": rss,
            "functional_wall_seconds": f["wall_seconds"] if f else None,
            "functional_warp_per_second": fspeed, "timing_over_functional": ratio})
    # Speeds, not times: spinlock's instruction count depends on the interleaving.
    fspeed = tfw / tfs if tfs else 0.0
    ratio = (tw / ts) / fspeed if fspeed else 0.0
    print(f"{'all':<16}{int(tw):>12,}{'':>12}{ts:>9.3f}{tw / ts / 1e6:>10.3f}{'':>9}"
          f"{fspeed / 1e6:>10.2f}{ratio:>7.3f}{peak:>8.1f}")
    report.setdefault(preset, {})[build] = {
        "warp_instructions": tw, "wall_seconds": ts, "warp_per_second": tw / ts,
        "functional_wall_seconds": tfs, "functional_warp_per_second": fspeed,
        "timing_over_functional": ratio, "peak_rss_mb": peak}
    return tw / ts



def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenarios", nargs="*", help="scenario names (default: all)")
    ap.add_argument("--size", default="study")
    ap.add_argument("--preset", action="append", help="timing preset (repeatable; "
                    "default: small and fermi)")
    ap.add_argument("--build", action="append", help="build directory holding warptlm "
                    "(repeatable: compare builds; default: build)")
    ap.add_argument("--threads", action="append", type=int, help="the timing runs' host threads "
                    "(repeatable: a scaling curve; default: the preset's, 1)")
    ap.add_argument("--repeat", type=int, default=1, help="best of N runs")
    ap.add_argument("--no-functional", action="store_true", help="skip the functional runs")
    ap.add_argument("--json", help="write every run's figures to this file")
    args = ap.parse_args()
    presets = args.preset or ["small", "fermi"]
    builds = args.build or [os.path.join(os.path.dirname(__file__), "..", "build")]
    clis = [os.path.join(b, "warptlm") for b in builds]
    for cli in clis:
        if not os.access(cli, os.X_OK):
            sys.exit(f"{cli} not found: build first (bash scripts/setup.sh)")
    cli = clis[0]  # lists the scenarios and runs functional mode
    names = args.scenarios or scenario_names(cli)

    threads = args.threads or [None]
    variants = [(c, t) for c in clis for t in threads]
    labels = [b if t is None else f"{b}, {t} thread" + ("s" if t > 1 else "")
              for b in builds for t in threads]
    report = {"size": args.size, "presets": presets, "builds": labels, "runs": []}
    functional = {}
    if not args.no_functional:
        for name in names:
            functional[name] = best_of(cli, name, args.size, "functional", None, args.repeat)
    for preset in presets:
        timed = {name: best_of_each(variants, name, args.size, preset, args.repeat)
                 for name in names}
        speeds = []
        for b, label in enumerate(labels):
            speeds.append(table(report, preset, label, args.size, names,
                                {n: timed[n][b] for n in names}, functional, len(labels) > 1))
        for b in range(1, len(labels)):
            print(f"preset {preset}: {labels[b]} runs the suite {speeds[b] / speeds[0]:.3f}x "
                  f"as fast as {labels[0]}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
