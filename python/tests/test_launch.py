"""Kernels and launches: arguments, copy-back, faults, traces, isolation."""

import os
import shutil

import numpy as np
import pytest

import warptlm
from conftest import AXPY_PTX, DIVERGE_PTX, SOURCE_DIR


def test_kernel_from_ptx_text_and_file(tmp_path, diverge):
    assert diverge.entry == "diverge"
    assert [(p.name, p.type, p.size) for p in diverge.params] == [("out", "u64", 8)]
    path = tmp_path / "k.ptx"
    path.write_text(DIVERGE_PTX)
    assert warptlm.Kernel.from_ptx(str(path), "diverge").params == diverge.params
    assert warptlm.Kernel.from_ptx(path, "diverge").source_name == str(path)


def test_registers_are_the_peak_of_the_live_ones(diverge):
    # 16 declared 32-bit units; at most %rd2 and %r1..%r3 (or %rd2, %rd3 and
    # %r5) live at once.
    assert diverge.registers == 5


def test_branches_are_the_finalizers_facts(diverge):
    by_pc = {b["pc"]: b for b in diverge.branches}
    cond = by_pc[56]
    assert (cond["target"], cond["reconvergence_pc"], cond["conditional"]) == (80, 88, True)
    assert (cond["structured"], cond["taint"]) == (True, "P")
    assert by_pc[72]["conditional"] is False and by_pc[72]["uniform_hint"] is True


def test_missing_entry_and_bad_ptx():
    with pytest.raises(ValueError, match=r"no kernel named 'nope' in <string> \(kernels: diverge\)"):
        warptlm.Kernel.from_ptx(DIVERGE_PTX, "nope")
    with pytest.raises(warptlm.PtxError, match="error"):
        warptlm.Kernel.from_ptx(DIVERGE_PTX.replace("mul.lo.s32", "mul.bogus.s32"), "diverge")
    with pytest.raises(FileNotFoundError):
        warptlm.Kernel.from_ptx("/nonexistent/k.ptx", "k")


def test_launch_copies_arrays_back_in_place(small, axpy):
    x = np.arange(100, dtype=np.float32)
    y = np.linspace(-1, 1, 100, dtype=np.float32)
    expected = np.float32(2.5) * x + y
    view = y  # the caller's own object is updated
    r = small.launch(axpy, 4, 32, [x, y, np.float32(2.5), 100])
    assert view is y and np.array_equal(y, expected)
    assert np.array_equal(x, np.arange(100, dtype=np.float32))
    assert r.stats["ctas"] == 4 and r.stats["warps"] == 4 and r.wall_seconds > 0
    assert r.total_seconds >= r.wall_seconds and r.trace is None


def test_non_contiguous_arrays_are_copied_back(small, diverge):
    backing = np.zeros((32, 2), dtype=np.int32)
    column = backing[:, 1]  # strided view
    small.with_(warp_size=8).launch(diverge, 2, 16, [column])
    assert list(backing[:12, 1]) == [3 * i for i in range(12)]
    assert list(backing[12:, 1]) == [-i for i in range(12, 32)]
    assert not backing[:, 0].any()


@pytest.mark.parametrize("args,error,match", [
    ([np.zeros(4, np.float32)], TypeError, r"takes 4 arguments \(x, y, a, n\), got 1"),
    ([np.zeros(4, np.float32)] * 2 + [2.0, 4, 5], TypeError, "takes 4 arguments"),
    ([np.zeros(4, np.float32)] * 2 + [np.float64(2.0), 4], TypeError, "numpy float64 does not match"),
    ([np.zeros(4, np.float32)] * 2 + [2.0, -2**31 - 1], OverflowError, r"outside \[-2147483648, 4294967295\]"),
    ([np.zeros(4, np.float32)] * 2 + [2.0, 2**32], OverflowError, "outside"),
    ([np.zeros(4, np.float32)] * 2 + [2.0, 1.5], TypeError, "an integer; got the float 1.5"),
    ([np.zeros(4, np.float32)] * 2 + [1e300, 4], OverflowError, "outside its range"),
    ([np.zeros(4, np.float32)] * 2 + ["2", 4], TypeError, "cannot pass a str"),
    ([np.zeros(4, np.float32)] * 3 + [4], TypeError, "not a 64-bit pointer"),
    ([1, np.zeros(4, np.float32), 2.0, 4], None, None),  # an int is a raw u64 address: allowed
])
def test_arguments_are_checked_against_parameter_types(small, axpy, args, error, match):
    if error is None:
        with pytest.raises(warptlm.KernelError):  # address 1 is unmapped: a fault, not a bad launch
            small.launch(axpy, 1, 4, args)
        return
    with pytest.raises(error, match=match):
        small.launch(axpy, 1, 4, args)


def test_bad_geometry_and_mode(small, axpy):
    args = [np.zeros(4, np.float32), np.zeros(4, np.float32), 1.0, 4]
    with pytest.raises(ValueError, match="at most 1024 threads"):
        small.launch(axpy, 1, 2048, args)
    with pytest.raises(ValueError, match="grid dimensions"):
        small.launch(axpy, 0, 4, args)
    with pytest.raises(ValueError, match="mode must be"):
        small.launch(axpy, 1, 4, args, mode="fast")


def test_timing_launch_matches_functional(small, axpy):
    x = np.arange(64, dtype=np.float32)
    y_f = np.ones(64, np.float32)
    y_t = y_f.copy()
    f = small.launch(axpy, 2, 32, [x, y_f, 2.0, 64])
    t = small.launch(axpy, 2, 32, [x, y_t, 2.0, 64], mode="timing")
    np.testing.assert_array_equal(y_f, y_t)
    assert t.stats["warp_instructions"] == f.stats["warp_instructions"]
    assert t.stats["cycles"] > 0 and "sm.slot_issued" in t.stats


def test_out_of_bounds_access_is_a_kernel_error(small, axpy):
    x = np.zeros(10, np.float32)
    y = np.zeros(10, np.float32)
    with pytest.raises(warptlm.KernelError) as info:
        small.launch(axpy, 1, 32, [x, y, 1.0, 32])  # n larger than the arrays
    e = info.value
    assert e.kernel == "axpy" and e.thread == (10, 0, 0) and e.cta == (0, 0, 0) and e.lane == 10
    assert e.space == "global" and e.address % 256 == 40  # x[10]: just past x (256-aligned)
    assert e.pc is not None and "past the end of 'x'" in str(e)


def test_trace_matches_hand_derived_issue_order(small, diverge):
    out = np.zeros(16, np.int32)
    r = small.with_(warp_size=8).launch(diverge, 1, 16, [out], trace=True)
    t = r.trace
    assert list(t.columns) == ["step", "sm", "warp", "split", "pc", "mask", "line", "instruction"]
    # Each row says what ran: the PTX line and text (DIVERGE_PTX's first instruction is on line 10).
    first = t[t.pc == 0].iloc[0]
    assert (first["line"], first["instruction"]) == (10, "ld.param.u64 %rd1, [out]")
    then = t[t.pc == 80].iloc[0]
    assert (then["line"], then["instruction"]) == (21, "mul.lo.s32 %r5, %r4, 3")
    # warp 0 (threads 0..7) all take THEN; warp 1 (threads 8..15) splits:
    # lanes 0..3 take THEN (run first, split 2), lanes 4..7 fall through
    # (split 1), then both reconverge at JOIN (pc 88, split 0).
    prefix = list(range(0, 64, 8))
    expected = [(0, 0, pc, 0xFF) for pc in prefix + [80, 88, 96, 104, 112]]
    expected += [(1, 0, pc, 0xFF) for pc in prefix]
    expected += [(1, 2, 80, 0x0F), (1, 1, 64, 0xF0), (1, 1, 72, 0xF0)]
    expected += [(1, 0, pc, 0xFF) for pc in (88, 96, 104, 112)]
    got = list(zip(t["warp"], t["split"], t["pc"], t["mask"]))
    assert got == expected
    assert list(t["step"]) == list(range(len(expected))) and set(t["sm"]) == {0}
    assert len(t) == r.stats["warp_instructions"]


def test_many_launches_in_one_interpreter(small, diverge):
    out = np.zeros(32, np.int32)
    platform = small.with_(warp_size=8)
    for i in range(200):
        out[:] = -99
        r = platform.launch(diverge, 2, 16, [out])
        assert r.stats["warp_instructions"] == 56
    assert out[5] == 15 and out[20] == -20


@pytest.mark.parametrize("kind,signal_name", [("abort", "SIGABRT"), ("segv", "SIGSEGV")])
def test_a_crash_in_the_model_is_an_exception(monkeypatch, small, diverge, kind, signal_name):
    out = np.zeros(32, np.int32)
    monkeypatch.setenv("WARPTLM_DEBUG_CRASH", f"seed=4242:{kind}")
    # Under scripts/sanitize.sh, AddressSanitizer catches the segfault and
    # reports it (exit status 1) instead of the process dying by the signal.
    expected = f"died with signal {signal_name}"
    if kind == "segv" and "libasan" in os.environ.get("LD_PRELOAD", ""):
        expected = "AddressSanitizer: SEGV"
    with pytest.raises(warptlm.SimulationCrash, match=expected):
        small.with_(seed=4242).launch(diverge, 2, 16, [out])
    assert not out.any()  # nothing copied back
    small.launch(diverge, 2, 16, [out])  # the next run works
    assert out[1] == 3


def test_from_cuda_compiles_with_clang(small):
    if not (shutil.which("clang-14") or shutil.which("clang")):
        pytest.skip("clang not installed")
    # Without the CUDA headers (-nocudainc) __global__ is clang's attribute.
    source = """
    extern "C" __attribute__((global)) void scale(int *v, int k) {
      int i = __nvvm_read_ptx_sreg_tid_x();
      if (i & 1) v[i] *= k;
    }
    """
    k = warptlm.Kernel.from_cuda(source, "scale", opt="-O2")
    assert [p.size for p in k.params] == [8, 4]
    v = np.arange(8, dtype=np.int32)
    small.launch(k, 1, 8, [v, 10])
    assert list(v) == [0, 10, 2, 30, 4, 50, 6, 70]
    assert any(b["conditional"] for b in k.branches)
    # A plain (C++-mangled) kernel name is found too, with the shim's macros.
    shim = os.path.join(SOURCE_DIR, "scenarios", "common")
    k2 = warptlm.Kernel.from_cuda('#include "cuda_shim.h"\n__global__ void twice(int *v) { v[tid_x()] *= 2; }',
                                  "twice", include_dirs=[shim])
    assert k2.entry.startswith("_Z5twice")
    with pytest.raises(warptlm.CompileError, match=r"(?s)clang could not compile <cuda source>:\n.*error: expected"):
        warptlm.Kernel.from_cuda("__attribute__((global)) void f( { }", "f")


def test_from_cuda_without_clang_is_a_clear_error():
    with pytest.raises(warptlm.CompileError, match="clang not found"):
        warptlm.Kernel.from_cuda("__global__ void f() {}", "f", clang="/nonexistent/clang")


def test_results_are_deterministic(small):
    a = warptlm.Kernel.from_ptx(AXPY_PTX, "axpy")
    runs = []
    for _ in range(2):
        y = np.ones(64, np.float32)
        runs.append((small.launch(a, 2, 32, [np.arange(64, dtype=np.float32), y, 0.5, 64]).stats, y))
    assert runs[0][0] == runs[1][0] and np.array_equal(runs[0][1], runs[1][1])
