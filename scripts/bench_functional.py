#!/usr/bin/python3
"""Functional-executor speed on the scenario suite.

Runs every built-in scenario at the given size through `build/warptlm run`
and prints warp and thread instructions per host second. A benchmark, not a
test: it asserts nothing, it prints figures.

    /usr/bin/python3 scripts/bench_functional.py [--size study] [--warp-size 32]
        [--build build [--build other]] [--repeat 3] [SCENARIO...]

With several --build directories (before and after a change) the runs
alternate between them, scenario by scenario and repeat by repeat, so a change
in the machine's load hits every build alike; a last line gives each build's
suite speed relative to the first one's.
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


def run_once(cli, name, size, warp_size):
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        subprocess.run([cli, "run", name, "--size", size, "--warp-size", str(warp_size),
                        "--stats", f.name], check=True, capture_output=True, text=True)
        record = json.load(open(f.name))
        return dict(record["stats"], wall_seconds=record["wall_seconds"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenarios", nargs="*", help="scenario names (default: all)")
    ap.add_argument("--size", default="study")
    ap.add_argument("--warp-size", type=int, default=32)
    ap.add_argument("--build", action="append",
                    help="build directory (repeat to compare builds; default: build)")
    ap.add_argument("--repeat", type=int, default=3, help="best of N runs")
    args = ap.parse_args()
    builds = args.build or [os.path.join(os.path.dirname(__file__), "..", "build")]
    clis = [os.path.join(b, "warptlm") for b in builds]
    for cli in clis:
        if not os.access(cli, os.X_OK):
            sys.exit(f"{cli} not found: build first (bash scripts/setup.sh)")
    names = args.scenarios or scenario_names(clis[0])

    best = [dict() for _ in clis]
    for name in names:
        for _ in range(args.repeat):
            for i, cli in enumerate(clis):
                s = run_once(cli, name, args.size, args.warp_size)
                if name not in best[i] or s["wall_seconds"] < best[i][name]["wall_seconds"]:
                    best[i][name] = s

    suite = []
    for i, build in enumerate(builds):
        if len(builds) > 1:
            print(f"\nbuild {build}")
        print(f"{'scenario':<16}{'warp instr':>14}{'thread instr':>15}{'seconds':>10}"
              f"{'M warp/s':>10}{'M thread/s':>12}{'SIMD util':>11}")
        total_w = total_t = total_s = 0.0
        for name in names:
            b = best[i][name]
            w, t, s = b["warp_instructions"], b["thread_instructions"], b["wall_seconds"]
            total_w, total_t, total_s = total_w + w, total_t + t, total_s + s
            print(f"{name:<16}{w:>14,}{t:>15,}{s:>10.3f}{w / s / 1e6:>10.2f}{t / s / 1e6:>12.1f}"
                  f"{100 * b['simd_utilisation']:>10.1f}%")
        print(f"{'all':<16}{int(total_w):>14,}{int(total_t):>15,}{total_s:>10.3f}"
              f"{total_w / total_s / 1e6:>10.2f}{total_t / total_s / 1e6:>12.1f}")
        suite.append(total_w / total_s / 1e6)
    if len(builds) > 1:
        print("\nsuite M warp/s: " + ", ".join(
            f"{b} {v:.2f} ({v / suite[0]:.3f}x)" for b, v in zip(builds, suite)))


if __name__ == "__main__":
    main()
