#!/usr/bin/python3
"""Functional-executor speed of every reconvergence scheme on a kernel that never diverges.

Issue 6 asks that a scheme cost only where it works: a non-divergent kernel
must run at the same speed under every scheme, within 10% of `ipdom`. This
runs one such kernel (a grid-sized arithmetic loop with a uniform trip count:
its loop branch never splits a warp) through `warptlm exec` under each
registered scheme, best of N, and prints warp instructions per host second
and the ratio to ipdom. It checks that the runs did not diverge and agree on
the instruction count (markers aside); the speed figures it only prints.

    /usr/bin/python3 scripts/bench_schemes.py [--build build] [--repeat 5]
        [--grid 512] [--block 256] [--iterations 256] [--warp-size 32]
"""
import argparse
import json
import os
import struct
import subprocess
import sys
import tempfile

# out[i] = f(i) with f a 3-instruction body repeated `n` times (n uniform).
KERNEL = r"""
.version 7.0
.target sm_70
.address_size 64

.visible .entry uniform_loop(.param .u64 out, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [n];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r5, %r2, %r3, %r4;
  mov.u32 %r6, %r5;
  mov.u32 %r7, 0;
LOOP:
  mad.lo.s32 %r6, %r6, 3, %r7;
  xor.b32 %r6, %r6, %r5;
  add.s32 %r7, %r7, 1;
  setp.lt.u32 %p1, %r7, %r1;
  @%p1 bra LOOP;
  mul.wide.u32 %rd2, %r5, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r6;
  ret;
}
"""


def write_npy_i32(path, count):
    """A zero-filled little-endian int32 .npy of `count` elements (no numpy needed)."""
    header = "{'descr': '<i4', 'fortran_order': False, 'shape': (%d,), }" % count
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(bytes(4 * count))


def scheme_names(cli):
    """The registered reconvergence schemes, as `warptlm list schemes` names them."""
    out = subprocess.run([cli, "list", "schemes"], capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.split()[:1] == ["reconvergence"]:
            return [n.strip() for n in line.split(None, 1)[1].split(",")]
    sys.exit(f"cannot list the schemes: {out.strip()}")


def run_once(cli, ptx, npy, scheme, args):
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        subprocess.run([cli, "exec", ptx, "--kernel", "uniform_loop", "--grid", str(args.grid),
                        "--block", str(args.block), "--arg", npy,
                        "--arg", f"u32:{args.iterations}", "--warp-size", str(args.warp_size),
                        "--reconvergence", scheme, "--stats", f.name],
                       check=True, capture_output=True, text=True)
        record = json.load(open(f.name))
        return dict(record["stats"], wall_seconds=record["wall_seconds"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "build"))
    ap.add_argument("--repeat", type=int, default=5, help="best of N runs")
    ap.add_argument("--grid", type=int, default=512)
    ap.add_argument("--block", type=int, default=256)
    ap.add_argument("--iterations", type=int, default=256)
    ap.add_argument("--warp-size", type=int, default=32)
    args = ap.parse_args()
    cli = os.path.join(args.build, "warptlm")
    if not os.access(cli, os.X_OK):
        sys.exit(f"{cli} not found: build first (bash scripts/setup.sh)")

    schemes = scheme_names(cli)
    schemes.sort(key=lambda s: (s != "ipdom", s))  # ipdom first: the reference
    with tempfile.TemporaryDirectory() as tmp:
        ptx, npy = os.path.join(tmp, "uniform_loop.ptx"), os.path.join(tmp, "out.npy")
        with open(ptx, "w") as f:
            f.write(KERNEL)
        print(f"{'scheme':<16}{'warp instr':>12}{'markers':>9}{'seconds':>10}"
              f"{'M warp/s':>10}{'vs ipdom':>10}")
        ref = None
        for scheme in schemes:
            runs = []
            for _ in range(args.repeat):
                write_npy_i32(npy, args.grid * args.block)
                runs.append(run_once(cli, ptx, npy, scheme, args))
            best = min(runs, key=lambda s: s["wall_seconds"])
            w, m, s = best["warp_instructions"], best["marker_instructions"], best["wall_seconds"]
            if best["divergent_branches"] or best["reconvergences"]:
                sys.exit(f"{scheme}: the kernel diverged ({best['divergent_branches']} branches)")
            rate = w / s
            if ref is None:
                ref = (w, rate)
            elif w - m != ref[0]:
                sys.exit(f"{scheme}: {w - m} instructions without markers, ipdom {ref[0]}")
            print(f"{scheme:<16}{w:>12,}{m:>9,}{s:>10.3f}{rate / 1e6:>10.2f}"
                  f"{rate / ref[1]:>10.3f}")


if __name__ == "__main__":
    main()
