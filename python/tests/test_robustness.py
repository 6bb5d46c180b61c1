"""Hostile and unusual kernels give the same located KernelError in both
modes, never another kernel's result or an internal error (issue 16)."""

import numpy as np
import pytest

import warptlm
from conftest import HEADER

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
