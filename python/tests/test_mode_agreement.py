"""Functional and timing mode agree on the outcome of hostile kernels: the
same outputs, the same launch error, or the same KernelError at the same place
(issue 16's property test). The kernels are a few hand-written seeds and
deterministic mutants of them (a literal, a comparison, a state space, a
register, a branch target changed; a line dropped or doubled), each launched
on one warp under four schemes (ipdom, sorted_list, mp_ipdom, tbc compaction), where both modes must report the very same instruction, and on
four warps over two CTAs, where the first fault may come from another warp in
timing order, so only its kind must agree (and a mutant's outputs, which may
race between CTAs, are compared on one warp only)."""

import random
import re

import numpy as np
import pytest

import warptlm
from conftest import AXPY_PTX, DIVERGE_PTX, HEADER

REDUCE_PTX = HEADER + r"""
.visible .entry reduce(.param .u64 in, .param .u64 out, .param .u32 n)
{
  .shared .align 4 .b32 part[64];
  .reg .pred %p<4>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, 0;
  mov.u32 %r4, %r2;
LOOP:
  setp.ge.u32 %p1, %r4, %r1;
  @%p1 bra DONE;
  mul.wide.u32 %rd3, %r4, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r5, [%rd4];
  add.s32 %r3, %r3, %r5;
  add.u32 %r4, %r4, 64;
  bra.uni LOOP;
DONE:
  mul.wide.u32 %rd5, %r2, 4;
  mov.u64 %rd6, part;
  add.s64 %rd7, %rd6, %rd5;
  st.shared.u32 [%rd7], %r3;
  bar.sync 0;
  setp.ne.u32 %p2, %r2, 0;
  @%p2 bra END;
  mov.u32 %r6, 0;
  mov.u32 %r7, 0;
SUM:
  mul.wide.u32 %rd5, %r7, 4;
  add.s64 %rd7, %rd6, %rd5;
  ld.shared.u32 %r8, [%rd7];
  add.s32 %r6, %r6, %r8;
  add.u32 %r7, %r7, 1;
  setp.lt.u32 %p3, %r7, 64;
  @%p3 bra SUM;
  st.global.u32 [%rd2], %r6;
END:
  ret;
}
"""

CALL_PTX = HEADER + r"""
.func (.param .b32 r) twice(.param .b32 x)
{
  .reg .b32 %t<3>;
  ld.param.b32 %t1, [x];
  add.s32 %t2, %t1, %t1;
  st.param.b32 [r], %t2;
  ret;
}
.visible .entry caller(.param .u64 out)
{
  .local .align 4 .b8 scratch[16];
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  st.local.u32 [scratch], %r1;
  ld.local.u32 %r2, [scratch];
  setp.lt.u32 %p1, %r2, 20;
  @%p1 bra SKIP;
  {
    .param .b32 a;
    .param .b32 b;
    st.param.b32 [a], %r2;
    call (b), twice, (a);
    ld.param.b32 %r2, [b];
  }
SKIP:
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;
}
"""

# Some lanes exit inside a device function while the others go on in the
# caller: the timing model once released a callee's register write into the
# caller's scoreboard (an internal error).
EXIT_IN_CALLEE_PTX = HEADER + r"""
.func (.param .b32 r) square(.param .b32 x)
{
  .reg .b32 %t<3>;
  ld.param.b32 %t1, [x];
  mul.lo.s32 %t2, %t1, %t1;
  exit;
}
.visible .entry caller(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 20;
  @%p1 bra SKIP;
  {
    .param .b32 a;
    .param .b32 b;
    st.param.b32 [a], %r1;
    call (b), square, (a);
    ld.param.b32 %r2, [b];
  }
SKIP:
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r1;
  ret;
}
"""

SEEDS = [DIVERGE_PTX, AXPY_PTX, REDUCE_PTX, CALL_PTX, EXIT_IN_CALLEE_PTX]
LITERALS = ["0", "1", "3", "31", "32", "63", "1023", "4096", "-1", "2147483647"]
SWAPS = [(".lt.", ".ge."), (".ge.", ".lt."), (".ne.", ".eq."), (".eq.", ".ne."), ("st.global", "st.shared"),
         ("ld.global", "ld.local"), ("st.shared", "st.global"), ("bar.sync 0", "bar.sync 1"), ("%r2", "%r3"),
         ("%rd3", "%rd1"), ("ret;", "exit;"), ("add.s32", "sub.s32")]


def mutate(ptx, rng):
    """One deterministic mutation of a body line of `ptx`."""
    lines = ptx.split("\n")
    body = [i for i, line in enumerate(lines) if line.startswith("  ") and not line.strip().startswith(".")]
    i = rng.choice(body)
    line = lines[i]
    choice = rng.randrange(5)
    if choice == 0 and re.search(r"(?<![%\w])\d+\b", line):
        spots = list(re.finditer(r"(?<![%\w])\d+\b", line))
        m = rng.choice(spots)
        lines[i] = line[:m.start()] + rng.choice(LITERALS) + line[m.end():]
    elif choice == 1:
        old, new = rng.choice([s for s in SWAPS if s[0] in line] or SWAPS)
        lines[i] = line.replace(old, new, 1)
    elif choice == 2:
        del lines[i]
    elif choice == 3:
        lines.insert(i, line)
    else:
        labels = re.findall(r"^(\w+):", ptx, re.M)
        if labels and "bra" in line:
            lines[i] = re.sub(r"bra(\.uni)? \w+", f"bra {rng.choice(labels)}", line)
        else:
            del lines[i]
    return "\n".join(lines)


def kernels():
    """(name, PTX text, entry) of the seeds and their mutants that parse."""
    rng = random.Random(16)
    out = []
    for s, seed in enumerate(SEEDS):
        entry = re.search(r"\.entry (\w+)", seed).group(1)
        out.append((f"seed{s}", seed, entry))
        made = 0
        while made < 30:
            ptx = seed
            for _ in range(rng.randrange(1, 4)):
                ptx = mutate(ptx, rng)
            try:
                warptlm.Kernel.from_ptx(ptx, entry)
            except (warptlm.PtxError, ValueError):
                continue
            out.append((f"seed{s}.m{made}", ptx, entry))
            made += 1
    return out


def arguments(kernel):
    """Arrays for pointers (int32 0..255), 16 or 2.0 for scalars."""
    args = []
    for p in kernel.params:
        if p.size == 8 and not p.type.startswith("f"):
            args.append(np.arange(256, dtype=np.int32))
        elif p.type.startswith("f"):
            args.append(np.float32(2.0) if p.size == 4 else np.float64(2.0))
        else:
            args.append({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[p.size](16))
    return args


def outcome(platform, kernel, grid, block, mode):
    args = arguments(kernel)
    try:
        platform.launch(kernel, grid, block, args, mode=mode)
    except warptlm.KernelError as e:
        return ("fault", str(e), (e.kernel, e.pc, e.cta, e.thread, e.lane))
    except ValueError as e:
        return ("refused", str(e), None)
    return ("ok", [a.tolist() for a in args if isinstance(a, np.ndarray)], None)


def kind(message):
    """What a KernelError says happened, without where: 'memory fault', 'runaway kernel'..."""
    reason = re.search(r"lane \d+\): (.*)", message, re.S)
    return (reason.group(1) if reason else message).split(":")[0]


QUICK = dict(instruction_budget=20000, watchdog=2000)
# The default stack, a scheme with per-thread PCs, one with split tables, compaction.
SETTINGS = [{}, {"reconvergence": "sorted_list"}, {"reconvergence": "mp_ipdom"}, {"compaction": "tbc"}]


@pytest.fixture(scope="module", params=SETTINGS, ids=lambda s: ",".join(f"{k}={v}" for k, v in s.items()) or "ipdom")
def setting(request):
    return warptlm.Platform("small", **QUICK, **request.param)


@pytest.fixture(scope="module")
def quick():
    return warptlm.Platform("small", **QUICK)


KERNELS = kernels()


def _id(value):
    return value if isinstance(value, str) and value.startswith("seed") else ""


@pytest.mark.parametrize("name,ptx,entry", KERNELS, ids=_id)
def test_one_warp_ends_the_same_in_both_modes(setting, name, ptx, entry):
    kernel = warptlm.Kernel.from_ptx(ptx, entry)
    f = outcome(setting, kernel, 1, 32, "functional")
    t = outcome(setting, kernel, 1, 32, "timing")
    assert f == t, ptx


@pytest.mark.parametrize("name,ptx,entry", KERNELS[::3], ids=_id)
def test_several_warps_end_alike_in_both_modes(quick, name, ptx, entry):
    kernel = warptlm.Kernel.from_ptx(ptx, entry)
    f = outcome(quick, kernel, 2, 64, "functional")
    t = outcome(quick, kernel, 2, 64, "timing")
    assert f[0] == t[0], (f, t, ptx)
    if f[0] == "fault":
        assert kind(f[1]) == kind(t[1]), (f[1], t[1])
    elif f[0] == "refused" or "." not in name:
        # A mutant's outputs may race (two CTAs writing one element, in
        # sequence in functional mode, interleaved in timing mode): only the
        # race-free seeds must write the same.
        assert f[1] == t[1], ptx
