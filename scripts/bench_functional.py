#!/usr/bin/python3
"""Functional-executor speed on the scenario suite.

Runs every built-in scenario at the given size through `build/warptlm run`
and prints warp and thread instructions per host second. A benchmark, not a
test: it asserts nothing, it prints figures.

    /usr/bin/python3 scripts/bench_functional.py [--size study] [--warp-size 32]
        [--build build] [--repeat 3]
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
    ap.add_argument("--size", default="study")
    ap.add_argument("--warp-size", type=int, default=32)
    ap.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "build"))
    ap.add_argument("--repeat", type=int, default=3, help="best of N runs")
    args = ap.parse_args()
    cli = os.path.join(args.build, "warptlm")
    if not os.access(cli, os.X_OK):
        sys.exit(f"{cli} not found: build first (bash scripts/setup.sh)")

    print(f"{'scenario':<16}{'warp instr':>14}{'thread instr':>15}{'seconds':>10}"
          f"{'M warp/s':>10}{'M thread/s':>12}{'SIMD util':>11}")
    total_w = total_t = total_s = 0.0
    for name in scenario_names(cli):
        best = min((run_once(cli, name, args.size, args.warp_size) for _ in range(args.repeat)),
                   key=lambda s: s["wall_seconds"])
        w, t, s = best["warp_instructions"], best["thread_instructions"], best["wall_seconds"]
        total_w, total_t, total_s = total_w + w, total_t + t, total_s + s
        print(f"{name:<16}{w:>14,}{t:>15,}{s:>10.3f}{w / s / 1e6:>10.2f}{t / s / 1e6:>12.1f}"
              f"{100 * best['simd_utilisation']:>10.1f}%")
    print(f"{'all':<16}{int(total_w):>14,}{int(total_t):>15,}{total_s:>10.3f}"
          f"{total_w / total_s / 1e6:>10.2f}{total_t / total_s / 1e6:>12.1f}")


if __name__ == "__main__":
    main()
