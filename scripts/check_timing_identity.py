#!/usr/bin/python3
"""Checks that a change to the timing model (or, with --mode functional, the functional executor) leaves its simulated behaviour identical.

--record DIR runs a broad set of timing runs and stores each run's statistics
JSON (without wall_seconds, the one host-dependent figure), exit status and
host-reference verdict; --compare DIR runs the same set and reports every run
whose statistics are not byte-for-byte the ones recorded (statistics added since
the recording are listed and left out of the comparison).

The set: every scenario on the small and fermi presets at study size; at
test size every scenario under each registered reconvergence scheme (small),
under the gto, two_level and srr schedulers (small), under each compaction
scheme with and without the balanced permutation (small), with a write-back
L1 and with global loads bypassing the L1 (small), with the fcfs DRAM
scheduler (small), and on volta.

--mode functional runs the functional executor's set instead: every
scenario at study size; at test size every scenario under each registered
reconvergence scheme, under each compaction scheme, with quanta of 1 and 7
warp instructions, and ended early by a budget of 3,000 warp instructions and
by a watchdog of 40 (the fault messages name the warp and PC, so they check
where a run stops).

--threads N runs every timing run on N host threads (host_threads): recorded
on one thread and compared on N, it checks that parallel SMs change nothing
(docs/parallel-sms.md).

    /usr/bin/python3 scripts/check_timing_identity.py --build build --record base/
    /usr/bin/python3 scripts/check_timing_identity.py --build build --compare base/
        [--jobs 2] [--threads N] [--mode timing|functional]
        [--only study|schemes|schedulers|compaction|l1|dram|volta|quantum|budget]
        [SCENARIO...]
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile


def scenario_names(cli):
    out = subprocess.run([cli, "list", "scenarios"], check=True, capture_output=True, text=True).stdout
    return [line.split()[0] for line in out.splitlines()[1:] if line[2:3].strip()]


def scheme_names(cli):
    """The registered reconvergence schemes, as `warptlm list schemes` names them."""
    out = subprocess.run([cli, "list", "schemes"], capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.split()[:1] == ["reconvergence"]:
            return [n.strip() for n in line.split(None, 1)[1].split(",")]
    sys.exit("could not read the scheme names from `warptlm list schemes`")


# Test-size runs stop at this many warp instructions (the largest needs about
# 200 k): schemes that livelock on spinlock then end in the same budget fault
# every time instead of running to the default budget of 2^32.
TEST_BUDGET = ["--set", "instruction_budget=1000000"]


GROUPS = ["study", "schemes", "schedulers", "compaction", "l1", "dram", "volta"]
FUNCTIONAL_GROUPS = ["study", "schemes", "compaction", "quantum", "budget"]


def functional_set(cli, names, only):
    """(key, argument list) of every functional run in the set."""
    runs = []
    groups = only or FUNCTIONAL_GROUPS
    if "study" in groups:
        runs += [(f"fstudy-{n}", [n, "--size", "study"]) for n in names]
    if "schemes" in groups:
        for scheme in scheme_names(cli):
            runs += [(f"ftest-{scheme}-{n}", [n, "--size", "test", "--reconvergence", scheme] +
                      TEST_BUDGET) for n in names]
    if "compaction" in groups:
        for comp in ["tbc", "capri", "ideal"]:
            runs += [(f"ftest-{comp}-{n}", [n, "--size", "test", "--set", f"compaction={comp}"] +
                      TEST_BUDGET) for n in names]
    if "quantum" in groups:
        for q in [1, 7]:
            runs += [(f"ftest-q{q}-{n}", [n, "--size", "test", "--set", f"quantum={q}"] +
                      TEST_BUDGET) for n in names]
    if "budget" in groups:
        runs += [(f"ftest-budget-{n}", [n, "--size", "test", "--set", "instruction_budget=3000"])
                 for n in names]
        runs += [(f"ftest-watchdog-{n}", [n, "--size", "test", "--set", "watchdog=40"] +
                  TEST_BUDGET) for n in names]
    return runs


def run_set(cli, names, only):
    """(key, argument list) of every run in the set."""
    runs = []
    groups = only or GROUPS
    if "study" in groups:
        for preset in ["small", "fermi"]:
            runs += [(f"study-{preset}-{n}", [n, "--size", "study", "--preset", preset])
                     for n in names]
    if "schemes" in groups:
        for scheme in scheme_names(cli):
            runs += [(f"test-{scheme}-{n}", [n, "--size", "test", "--preset", "small",
                                            "--reconvergence", scheme] + TEST_BUDGET)
                     for n in names]
    if "schedulers" in groups:
        for sched in ["gto", "two_level", "srr"]:
            runs += [(f"test-{sched}-{n}", [n, "--size", "test", "--preset", "small",
                                           "--set", f"scheduler={sched}"] + TEST_BUDGET)
                     for n in names]
    if "compaction" in groups:
        for comp in ["tbc", "capri", "ideal"]:
            for perm in ["none", "balanced"]:
                runs += [(f"test-{comp}-{perm}-{n}",
                          [n, "--size", "test", "--preset", "small", "--set", f"compaction={comp}",
                           "--set", f"permutation={perm}"] + TEST_BUDGET)
                         for n in names]
    if "l1" in groups:
        for key, setting in [("wb", "memory.l1.write_policy=write_back"),
                             ("cg", "memory.l1.cache_global=false")]:
            runs += [(f"test-l1{key}-{n}", [n, "--size", "test", "--preset", "small",
                                            "--set", setting] + TEST_BUDGET)
                     for n in names]
    if "dram" in groups:
        runs += [(f"test-fcfs-{n}", [n, "--size", "test", "--preset", "small",
                                     "--set", "memory.dram.scheduler=fcfs"] + TEST_BUDGET)
                 for n in names]
    if "volta" in groups:
        runs += [(f"test-volta-{n}", [n, "--size", "test", "--preset", "volta"] + TEST_BUDGET)
                 for n in names]
    return runs


def run_one(cli, args, threads, mode="timing"):
    """The run's comparable record: exit status, PASS/FAIL lines and statistics
    (the statistics alone: a new configuration field or version changes the
    run record without changing what was simulated)."""
    with tempfile.TemporaryDirectory() as d:
        stats_file = os.path.join(d, "stats.json")
        threading = ["--threads", str(threads)] if threads else []
        proc = subprocess.run([cli, "run"] + args + ["--mode", mode, "--stats", stats_file] +
                              threading, capture_output=True, text=True)
        stats = None
        if os.path.exists(stats_file):
            with open(stats_file) as f:
                stats = json.load(f)["stats"]
    verdict = [line.strip() for line in proc.stdout.splitlines() if "host reference" in line]
    # Faults and budget ends name the warp and PC: the message is part of the behaviour.
    errors = [line.strip() for line in proc.stderr.splitlines() if line.strip()]
    return {"rc": proc.returncode, "verdict": verdict, "errors": errors, "stats": stats}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenarios", nargs="*", help="scenario names (default: all)")
    ap.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "build"))
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--record", metavar="DIR", help="store the runs' records in DIR")
    mode.add_argument("--compare", metavar="DIR", help="compare the runs with those in DIR")
    ap.add_argument("--mode", choices=["timing", "functional"], default="timing",
                    help="which model's set to run (default: timing)")
    ap.add_argument("--only", action="append", choices=sorted(set(GROUPS + FUNCTIONAL_GROUPS)))
    ap.add_argument("--jobs", type=int, default=2, help="runs at a time")
    ap.add_argument("--threads", type=int, help="host threads of each run (default: 1)")
    args = ap.parse_args()
    cli = os.path.join(args.build, "warptlm")
    if not os.access(cli, os.X_OK):
        sys.exit(f"{cli} not found: build the warptlm target first")
    names = args.scenarios or scenario_names(cli)
    if args.mode == "functional":
        if args.threads:
            sys.exit("--threads applies to timing runs only")
        runs = functional_set(cli, names, args.only)
    else:
        runs = run_set(cli, names, args.only)
    directory = args.record or args.compare
    os.makedirs(directory, exist_ok=True)

    differ = missing = 0
    added = set()
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(run_one, cli, a, args.threads, args.mode): (key, a)
                   for key, a in runs}
        for fut in concurrent.futures.as_completed(futures):
            key, a = futures[fut]
            text = json.dumps(fut.result(), indent=0, sort_keys=True)
            path = os.path.join(directory, key + ".json")
            if args.record:
                with open(path, "w") as f:
                    f.write(text)
                continue
            if not os.path.exists(path):
                missing += 1
                print(f"not recorded: {key}")
                continue
            with open(path) as f:
                recorded = json.load(f)
            now = fut.result()
            # A statistic added since the recording is new, not different: the
            # recorded ones must keep their values and none may disappear.
            if now.get("stats") and recorded.get("stats"):
                new_keys = set(now["stats"]) - set(recorded["stats"])
                added |= new_keys
                now = dict(now, stats={k: v for k, v in now["stats"].items() if k not in new_keys})
            if json.dumps(now, indent=0, sort_keys=True) != json.dumps(recorded, indent=0, sort_keys=True):
                differ += 1
                threading = f" --threads {args.threads}" if args.threads else ""
                print(f"DIFFERS: {key} (warptlm run {' '.join(a)} --mode {args.mode}{threading})")
    if args.record:
        print(f"recorded {len(runs)} runs in {directory}")
        return
    print(f"{len(runs)} runs: {len(runs) - differ - missing} identical, {differ} differ, "
          f"{missing} not recorded")
    if added:
        print(f"statistics added since the recording (not compared): {', '.join(sorted(added))}")
    sys.exit(1 if differ or missing else 0)


if __name__ == "__main__":
    main()
