#!/usr/bin/python3
"""Speed of the GPU as a virtual-prototype model: LT and AT against a bound TLM memory.

Runs every built-in scenario (or those named) through `warptlm_bench_vp`, one
process per run (SystemC elaborates once per process): the functional
executor; the GPU in mode at (cycle-level) with DMI on and off; and the GPU
in mode lt with global quanta of 0, 1 us, 100 us and 10 ms, DMI on and off.
In the at and lt runs a plain TLM memory (memory/tlm/tlm_memory.h: RAM,
100 ns per b_transport, DMI to all of it, debug transport) is bound to the
GPU's memory socket and holds every buffer, as a VP's memory would.

Prints warp instructions per host second for the suite (total instructions
over total seconds, each run's seconds covering elaboration, simulation and
the copies), each configuration against the functional executor, LT against
AT, and what the quantum and DMI are each worth. A benchmark, not a test: it
asserts only that every run passes its host reference.

    /usr/bin/python3 scripts/bench_vp.py [--build build] [--size study] [--preset small]
        [--repeat 1] [--json FILE] [SCENARIO...]
"""
import argparse
import json
import os
import subprocess
import sys

QUANTA_NS = [0, 1000, 100000, 10000000]


def quantum_name(ns):
    return {0: "0", 1000: "1us", 100000: "100us", 10000000: "10ms"}.get(ns, f"{ns}ns")


def configurations():
    yield ("functional", "functional", 0, 1)
    for dmi in (1, 0):
        yield (f"at dmi={'on' if dmi else 'off'}", "at", 0, dmi)
    for dmi in (1, 0):
        for q in QUANTA_NS:
            yield (f"lt q={quantum_name(q)} dmi={'on' if dmi else 'off'}", "lt", q, dmi)


def scenario_names(cli):
    out = subprocess.run([cli, "list", "scenarios"], check=True, capture_output=True, text=True).stdout
    return [line.split()[0] for line in out.splitlines()[1:] if line[2:3].strip()]


def run(bench, scenario, size, mode, quantum, dmi, preset):
    cmd = [bench, scenario, size, mode, str(quantum), str(dmi), preset]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"bench_vp: {' '.join(cmd)} failed ({r.returncode}): {r.stderr.strip() or r.stdout}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--build", default="build")
    p.add_argument("--size", default="study", help="test, study or n (default study)")
    p.add_argument("--preset", default="small")
    p.add_argument("--repeat", type=int, default=1, help="best of N per run")
    p.add_argument("--json", help="write every run's record here")
    p.add_argument("scenarios", nargs="*")
    a = p.parse_args()
    bench = os.path.join(a.build, "tools", "bench", "warptlm_bench_vp")
    cli = os.path.join(a.build, "warptlm")
    for f in (bench, cli):
        if not os.access(f, os.X_OK):
            sys.exit(f"bench_vp: {f} not found: build the project first (cmake --build {a.build})")
    names = a.scenarios or scenario_names(cli)
    configs = list(configurations())
    totals = {label: [0, 0.0] for label, *_ in configs}
    records = []
    for name in names:
        for label, mode, q, dmi in configs:
            best = None
            for _ in range(a.repeat):
                rec = run(bench, name, a.size, mode, q, dmi, a.preset)
                if best is None or rec["seconds"] < best["seconds"]:
                    best = rec
            best["config"] = label
            records.append(best)
            totals[label][0] += best["warp_instructions"]
            totals[label][1] += best["seconds"]
        print(f"  {name}: done", file=sys.stderr)
    speed = {k: (v[0] / v[1] if v[1] else 0.0) for k, v in totals.items()}
    f = speed["functional"]
    at = speed["at dmi=on"]
    print(f"{len(names)} scenarios, size {a.size}, preset {a.preset}; "
          f"suite speed in M warp instructions per host second")
    print(f"{'configuration':24} {'M/s':>9} {'x functional':>13} {'x at':>8}")
    for label, *_ in configs:
        s = speed[label]
        print(f"{label:24} {s / 1e6:9.2f} {s / f if f else 0:13.3f} {s / at if at else 0:8.2f}")
    print()
    print("quantum (lt, DMI on):  " + ", ".join(
        f"{quantum_name(q)} {speed[f'lt q={quantum_name(q)} dmi=on'] / 1e6:.2f} M/s" for q in QUANTA_NS))
    for q in QUANTA_NS:
        on, off = speed[f"lt q={quantum_name(q)} dmi=on"], speed[f"lt q={quantum_name(q)} dmi=off"]
        print(f"DMI at quantum {quantum_name(q):>5}: on/off = {on / off if off else 0:.2f}x")
    if a.json:
        with open(a.json, "w") as out:
            json.dump(records, out, indent=1)


if __name__ == "__main__":
    main()
