"""Hostile and unusual kernels give the same located KernelError in both
modes, never another kernel's result or an internal error (issue 16)."""

import numpy as np
import pytest

import warptlm
from conftest import DIVERGE_PTX as DIVERGE, HEADER

TWO_ENTRIES = HEADER + r"""
.visible .entry k0(.param .u64 out)
{
}
.visible .entry k1(.param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, 42;
  st.global.u32 [%rd1], %r1;
  ret;
}
"""

FALLS_OFF = HEADER + r"""
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<2>;
  mov.u32 %r1, 1;
}
"""


def faults_alike(platform, kernel, args):
    """The KernelError of both modes, which must say the same."""
    errors = []
    for mode in ("functional", "timing"):
        with pytest.raises(warptlm.KernelError) as info:
            platform.launch(kernel, 1, 1, args, mode=mode)
        errors.append(info.value)
    f, t = errors
    assert str(f) == str(t)
    assert (f.kernel, f.pc, f.thread, f.cta, f.lane) == (t.kernel, t.pc, t.thread, t.cta, t.lane)
    return f


def test_an_empty_entry_runs_its_own_body_not_the_next_kernels(small):
    out = np.zeros(4, np.int32)
    k0 = warptlm.Kernel.from_ptx(TWO_ENTRIES, "k0")
    e = faults_alike(small, k0, [out])
    assert e.kernel == "k0" and "past the end of function 'k0'" in str(e)
    assert "(the end of 'k0', whose body is empty)" in str(e)
    assert list(out) == [0, 0, 0, 0]  # k1's store never ran
    k1 = warptlm.Kernel.from_ptx(TWO_ENTRIES, "k1")
    for mode in ("functional", "timing"):
        small.launch(k1, 1, 1, [out], mode=mode)
        assert out[0] == 42
        out[0] = 0


def test_falling_off_the_last_kernel_is_the_same_fault_in_both_modes(small):
    e = faults_alike(small, warptlm.Kernel.from_ptx(FALLS_OFF, "k"), [np.zeros(1, np.int32)])
    assert e.pc == 8 and "fell off its end" in str(e)


def refused_alike(platform, kernel, args, grid=1, block=1, **kw):
    """The launch error of both modes, which must say the same."""
    messages = []
    for mode in ("functional", "timing"):
        with pytest.raises(ValueError) as info:
            platform.launch(kernel, grid, block, args, mode=mode, **kw)
        messages.append(str(info.value))
    assert messages[0] == messages[1]
    return messages[0]


BIG_TILE = HEADER + r"""
.visible .entry big_tile(.param .u64 out)
{
  .shared .align 4 .b8 tile[40000];
  ret;
}
"""

HUGE_FRAME = HEADER + r"""
.visible .entry huge_frame(.param .u64 out)
{
  .local .align 4 .b8 big[1073741824];
  .reg .b32 %r<2>;
  mov.u32 %r1, 7;
  st.local.u32 [big+1073741820], %r1;
  ret;
}
"""

SPIN = HEADER + r"""
.visible .entry spin(.param .u64 out)
{
  .reg .b32 %r<2>;
  mov.u32 %r1, 0;
LOOP:
  add.u32 %r1, %r1, 1;
  bra.uni LOOP;
}
"""


def test_both_modes_refuse_what_an_sm_cannot_hold_with_the_same_words(small):
    out = np.zeros(4, np.int32)
    msg = refused_alike(small, warptlm.Kernel.from_ptx(BIG_TILE, "big_tile"), [out])
    assert "a CTA needs 40000 bytes of shared memory (40000 static + 0 dynamic), an SM has 32768" in msg
    axpy_like = warptlm.Kernel.from_ptx(DIVERGE, "diverge")
    msg = refused_alike(small, axpy_like, [out], shared_bytes=2**31)
    assert "2147483648 dynamic" in msg
    msg = refused_alike(small.with_(**{"sm.threads": 512}), axpy_like, [np.zeros(1024, np.int32)], block=1024)
    assert "a CTA needs 32 warp slots" in msg
    msg = refused_alike(small, warptlm.Kernel.from_ptx(HUGE_FRAME, "huge_frame"), [out], grid=2)
    assert "a thread needs 1073741824 bytes of local memory" in msg


def test_a_spinning_kernel_is_reported_by_the_watchdog_in_both_modes(small):
    e = faults_alike(small, warptlm.Kernel.from_ptx(SPIN, "spin"), [np.zeros(1, np.int32)])
    assert "no progress: the warp issued 1048577 warp instructions in a row" in str(e)
    assert e.pc == 16 and e.cta == (0, 0, 0)
    fast = small.with_(watchdog=1000)
    with pytest.raises(warptlm.KernelError, match="issued 1001 warp instructions"):
        fast.launch(warptlm.Kernel.from_ptx(SPIN, "spin"), 1, 1, [np.zeros(1, np.int32)], mode="timing")


def test_an_unknown_kernel_lists_at_most_ten():
    ptx = HEADER + "".join(f".visible .entry k{i}()\n{{\n  ret;\n}}\n" for i in range(12))
    with pytest.raises(ValueError, match=r"\(kernels: k0, k1, k2, k3, k4, k5, k6, k7, k8, k9 and 2 more\)$"):
        warptlm.Kernel.from_ptx(ptx, "nope")
