#!/usr/bin/python3
"""How much of a body of public CUDA code warptlm accepts: compiles every .cu
file under a source tree to PTX with nvcc, parses and finalizes each file that
has kernels with warptlm, and reports per suite (the first two folder levels)
the files accepted and, for the others, the first construct refused.

nvcc is needed (it is not a warptlm dependency; a CUDA toolkit's is). The
sources are not part of warptlm: fetch them yourself, for example

    git clone https://github.com/NVIDIA/cuda-samples /tmp/cuda-samples
    PYTHONPATH=build/python /usr/bin/python3 scripts/cuda_corpus.py /tmp/cuda-samples \\
        --include Common --arch sm_75 --csv /tmp/cuda-samples.csv

Each file is compiled on its own (`nvcc -ptx -arch=ARCH -O3 -I...`); files
nvcc refuses (missing headers, host-only code) are counted apart, as are
files without kernels. The CSV has one row per file: path, suite, status
(accepted, refused, no_kernels, nvcc_failed), kernels, construct, message.
"""
import argparse
import collections
import concurrent.futures
import csv
import os
import re
import subprocess
import sys
import tempfile

import warptlm


def compile_ptx(nvcc, source, arch, includes, timeout):
    """(ptx text or None, nvcc's last error line)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "k.ptx")
        cmd = [nvcc, "-ptx", f"-arch={arch}", "-O3", "-w", *[f"-I{i}" for i in includes], source, "-o", out]
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                               cwd=os.path.dirname(source))
        except subprocess.TimeoutExpired:
            return None, f"nvcc took over {timeout} s"
        if r.returncode != 0 or not os.path.exists(out):
            lines = [l for l in r.stderr.splitlines() if "error" in l] or r.stderr.splitlines() or ["?"]
            return None, lines[0][:200]
        with open(out, encoding="utf-8", errors="replace") as f:
            return f.read(), ""


# The construct a PtxError names: the instruction or directive it quotes.
_QUOTED = re.compile(r"'([^']+)'")


def construct(message):
    """A short name for what a PtxError refused: its first quoted token,
    reduced to the opcode or directive (tex.a2d.v4.f32.f32 -> tex.a2d)."""
    m = _QUOTED.search(message)
    if not m:
        return message.split(": error: ")[-1][:60]
    token = m.group(1)
    if token.startswith((".", "%")):
        return token.split()[0]
    parts = token.split(".")
    return ".".join(parts[:2]) if len(parts) > 1 and not parts[1][:1].isdigit() else parts[0]


def check_file(path, root, args):
    rel = os.path.relpath(path, root)
    suite = "/".join(rel.split(os.sep)[:2]) if os.sep in rel else "."
    ptx, err = compile_ptx(args.nvcc, path, args.arch, args.include, args.timeout)
    row = dict(path=rel, suite=suite, status="", kernels=0, construct="", message="")
    if ptx is None:
        return {**row, "status": "nvcc_failed", "message": err}
    kernels = len(re.findall(r"^\s*\.(?:visible\s+)?\.?entry\s", ptx, re.M))
    if kernels == 0:
        return {**row, "status": "no_kernels"}
    try:
        warptlm._core.analyze(ptx, rel.replace(".cu", ".ptx"))
        return {**row, "status": "accepted", "kernels": kernels}
    except Exception as exc:  # PtxError, or a finalizer error
        text = str(exc)
        return {**row, "status": "refused", "kernels": kernels, "construct": construct(text), "message": text[:300]}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", help="the source tree (every .cu file under it)")
    parser.add_argument("--nvcc", default=os.environ.get("NVCC", "/usr/local/cuda/bin/nvcc"))
    parser.add_argument("--arch", default="sm_75")
    parser.add_argument("--include", action="append", default=[],
                        help="an include folder, relative to ROOT or absolute (repeatable)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=int, default=300, help="seconds per nvcc run")
    parser.add_argument("--csv", help="write one row per file here")
    args = parser.parse_args(argv)
    if not os.path.isdir(args.root):
        parser.error(f"{args.root} is not a folder")
    if not os.access(args.nvcc, os.X_OK):
        parser.error(f"no nvcc at {args.nvcc} (set --nvcc or NVCC)")
    args.include = [i if os.path.isabs(i) else os.path.join(args.root, i) for i in args.include]
    sources = sorted(os.path.join(d, f) for d, _, files in os.walk(args.root) for f in files if f.endswith(".cu"))
    rows = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for i, row in enumerate(pool.map(lambda p: check_file(p, args.root, args), sources), 1):
            rows.append(row)
            print(f"[{i}/{len(sources)}] {row['status']:12} {row['path']}", file=sys.stderr)
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]) if rows else ["path"])
            w.writeheader()
            w.writerows(rows)

    print(f"| suite | .cu files | nvcc failed | without kernels | with kernels | accepted | share |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    suites = collections.defaultdict(collections.Counter)
    for r in rows:
        suites[r["suite"]][r["status"]] += 1
    total = collections.Counter()
    for name in sorted(suites):
        c = suites[name]
        total.update(c)
        with_kernels = c["accepted"] + c["refused"]
        share = f"{100 * c['accepted'] / with_kernels:.0f}%" if with_kernels else "-"
        print(f"| {name} | {sum(c.values())} | {c['nvcc_failed']} | {c['no_kernels']} | {with_kernels} | "
              f"{c['accepted']} | {share} |")
    with_kernels = total["accepted"] + total["refused"]
    share = f"{100 * total['accepted'] / with_kernels:.0f}%" if with_kernels else "-"
    print(f"| all | {sum(total.values())} | {total['nvcc_failed']} | {total['no_kernels']} | {with_kernels} | "
          f"{total['accepted']} | {share} |")
    refused = collections.Counter(r["construct"] for r in rows if r["status"] == "refused")
    if refused:
        print("\nFirst construct refused, by files:")
        for name, n in refused.most_common():
            example = next(r for r in rows if r["construct"] == name)
            print(f"- {name}: {n} (e.g. {example['path']}: {example['message'][:160]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
