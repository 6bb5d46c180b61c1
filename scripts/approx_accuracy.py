#!/usr/bin/python3
"""Measures what warptlm's .approx instructions compute: each one runs on a
warp-wide sample of inputs through the functional executor (Python API), and
its results are compared with a long-double reference (x87, 64-bit
significand). Prints one row per instruction: the largest error in ulps of
the result's type, or the absolute or relative error where that is how the
PTX ISA states the bound, and where it occurred. docs/semantics.md has the table.

    PYTHONPATH=build/python /usr/bin/python3 scripts/approx_accuracy.py [--samples N]
"""
import argparse
import math
import sys

import numpy as np

import warptlm

HEAD = ".version 7.0\n.target sm_75\n.address_size 64\n"


def unary_kernel(inst, reg, ty):
    return HEAD + f"""
.visible .entry k(.param .u64 in, .param .u64 out, .param .u32 n) {{
  .reg .pred %p1; .reg .b32 %r<5>; .reg .b64 %rd<8>; .reg .{reg} %x<3>;
  ld.param.u64 %rd1, [in]; ld.param.u64 %rd2, [out]; ld.param.u32 %r1, [n];
  mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x; mov.u32 %r4, %tid.x; mad.lo.u32 %r2, %r2, %r3, %r4;
  setp.ge.u32 %p1, %r2, %r1;
  @%p1 ret;
  mul.wide.u32 %rd3, %r2, {8 if ty == 'f64' else 4};
  add.u64 %rd4, %rd1, %rd3; add.u64 %rd5, %rd2, %rd3;
  ld.global.{ty} %x1, [%rd4];
  {inst} %x2, %x1;
  st.global.{ty} [%rd5], %x2;
  ret;
}}
"""


def div_kernel():
    return HEAD + """
.visible .entry k(.param .u64 a, .param .u64 b, .param .u64 out, .param .u32 n) {
  .reg .pred %p1; .reg .b32 %r<5>; .reg .b64 %rd<10>; .reg .f32 %f<4>;
  ld.param.u64 %rd1, [a]; ld.param.u64 %rd2, [b]; ld.param.u64 %rd3, [out]; ld.param.u32 %r1, [n];
  mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x; mov.u32 %r4, %tid.x; mad.lo.u32 %r2, %r2, %r3, %r4;
  setp.ge.u32 %p1, %r2, %r1;
  @%p1 ret;
  mul.wide.u32 %rd4, %r2, 4;
  add.u64 %rd5, %rd1, %rd4; add.u64 %rd6, %rd2, %rd4; add.u64 %rd7, %rd3, %rd4;
  ld.global.f32 %f1, [%rd5]; ld.global.f32 %f2, [%rd6];
  div.approx.f32 %f3, %f1, %f2;
  st.global.f32 [%rd7], %f3;
  ret;
}
"""


def log_uniform(rng, n, lo, hi, signed=False):
    x = np.exp2(rng.uniform(lo, hi, n))
    if signed:
        x *= rng.choice([-1.0, 1.0], n)
    return x


def ulps(result, ref, dtype):
    """|result - ref| in units of the last place of ref in dtype."""
    ref_t = ref.astype(dtype)
    spacing = np.abs(np.spacing(np.abs(ref_t))).astype(np.longdouble)
    return np.abs(result.astype(np.longdouble) - ref) / spacing


# name, PTX, register type, memory type, inputs(rng, n), reference, error kind
CASES = [
    ("rcp.approx.f32", "rcp.approx.f32", "f32", "f32", lambda r, n: log_uniform(r, n, -60, 60, True),
     lambda x: 1 / x, "ulp"),
    ("rcp.approx.ftz.f64", "rcp.approx.ftz.f64", "f64", "f64", lambda r, n: log_uniform(r, n, -500, 500, True),
     lambda x: 1 / x, "rel"),
    ("sqrt.approx.f32", "sqrt.approx.f32", "f32", "f32", lambda r, n: log_uniform(r, n, -100, 100),
     np.sqrt, "ulp"),
    ("rsqrt.approx.f32", "rsqrt.approx.f32", "f32", "f32", lambda r, n: log_uniform(r, n, -100, 100),
     lambda x: 1 / np.sqrt(x), "ulp"),
    ("ex2.approx.f32", "ex2.approx.f32", "f32", "f32", lambda r, n: r.uniform(-120, 120, n),
     np.exp2, "ulp"),
    ("lg2.approx.f32", "lg2.approx.f32", "f32", "f32", lambda r, n: log_uniform(r, n, -120, 120),
     np.log2, "ulp"),
    ("lg2.approx.f32 in [0.5, 2]", "lg2.approx.f32", "f32", "f32", lambda r, n: log_uniform(r, n, -1, 1),
     np.log2, "abs"),
    ("sin.approx.f32 in [-pi, pi]", "sin.approx.f32", "f32", "f32", lambda r, n: r.uniform(-math.pi, math.pi, n),
     np.sin, "abs"),
    ("cos.approx.f32 in [-pi, pi]", "cos.approx.f32", "f32", "f32", lambda r, n: r.uniform(-math.pi, math.pi, n),
     np.cos, "abs"),
    ("sin.approx.f32 in [-100pi, 100pi]", "sin.approx.f32", "f32", "f32",
     lambda r, n: r.uniform(-100 * math.pi, 100 * math.pi, n), np.sin, "abs"),
    ("tanh.approx.f32", "tanh.approx.f32", "f32", "f32", lambda r, n: r.uniform(-12, 12, n),
     np.tanh, "rel"),
]


def run(ptx, args, n):
    kernel = warptlm.Kernel.from_ptx(ptx, "k")
    warptlm.Platform("small").launch(kernel, (n + 255) // 256, 256, args + [n], mode="functional")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--samples", type=int, default=1 << 14)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    n = a.samples
    rng = np.random.default_rng(a.seed)
    print(f"{'instruction':36} {'largest error':>22}  at input")
    for name, inst, reg, ty, inputs, reference, kind in CASES:
        dtype = np.float64 if ty == "f64" else np.float32
        x = inputs(rng, n).astype(dtype)
        out = np.zeros(n, dtype)
        run(unary_kernel(inst, reg, ty), [x, out], n)
        ref = reference(x.astype(np.longdouble))
        if kind == "ulp":
            err = ulps(out, ref, dtype)
            unit = "ulp"
        elif kind == "rel":
            nz = ref != 0
            err = np.zeros(n, np.longdouble)
            err[nz] = np.abs((out[nz].astype(np.longdouble) - ref[nz]) / ref[nz])
            unit = "relative"
        else:
            err = np.abs(out.astype(np.longdouble) - ref)
            unit = "absolute"
        i = int(np.argmax(err))
        e = float(err[i])
        shown = f"{e:.3f} {unit}" if kind == "ulp" else f"2^{math.log2(e):.1f} {unit}" if e > 0 else f"0 {unit}"
        print(f"{name:36} {shown:>22}  {x[i]!r}")
    # div.approx.f32 over |b| in [2^-125, 2^125]
    x = log_uniform(rng, n, -60, 60, True).astype(np.float32)
    y = log_uniform(rng, n, -60, 60, True).astype(np.float32)
    out = np.zeros(n, np.float32)
    run(div_kernel(), [x, y, out], n)
    err = ulps(out, x.astype(np.longdouble) / y.astype(np.longdouble), np.float32)
    i = int(np.argmax(err))
    print(f"{'div.approx.f32':36} {float(err[i]):>18.3f} ulp  {x[i]!r} / {y[i]!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
