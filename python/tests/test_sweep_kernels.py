"""Sweeps of a user's own kernels (KernelCase) beside built-in scenarios."""

import shutil

import numpy as np
import pytest

import warptlm
from conftest import AXPY_PTX
from warptlm.store import read_results

SCALE_CU = """
__global__ void scale(int n, float f, float *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && (i % 3)) a[i] *= f;
}
"""


def scale_args(config):
    # Built per point: a module-level function, so Dask workers can import it.
    return [np.int32(100), np.float32(config["warp_size"]), np.arange(100, dtype=np.float32)]


def scale_check(args, config):
    want = np.arange(100, dtype=np.float32)
    want[np.arange(100) % 3 != 0] *= config["warp_size"]
    ok = np.array_equal(args[2], want)
    return ok, "matches" if ok else "differs"


def always_wrong(args, config):
    return False


@pytest.fixture(scope="module")
def scale():
    if not (shutil.which("clang-14") or shutil.which("clang")):
        pytest.skip("clang not installed")
    return warptlm.Kernel.from_cuda(SCALE_CU, "scale")


@pytest.mark.parametrize("mode", ["functional", "timing"])
def test_a_kernel_case_sweeps_with_the_scenarios(small, scale, tmp_path, mode):
    case = warptlm.KernelCase("scale", scale, grid=4, block=32, args=scale_args, check=scale_check)
    out = tmp_path / "r.csv"
    frame = warptlm.sweep(small, {"warp_size": [16, 32]}, [case, "reduction"], workers=2, out=out, mode=mode)
    assert list(frame["scenario"]) == ["scale", "reduction", "scale", "reduction"]
    assert frame["passed"].all(), frame["error"].tolist()
    rows = frame[frame.scenario == "scale"]
    assert list(rows["message"]) == ["matches", "matches"]
    assert rows.iloc[0]["warps"] == 8 and rows.iloc[1]["warps"] == 4  # 128 threads in 16- and 32-lane warps
    assert rows["size"].str.startswith("kernel:").all()
    if mode == "timing":
        assert (rows["cycles"] > 0).all()
    again = warptlm.sweep(small, {"warp_size": [16, 32]}, [case, "reduction"], workers=2, out=out, mode=mode)
    assert list(again["wall_seconds"]) == list(frame["wall_seconds"])  # resumed, not rerun
    assert len(read_results(out)) == 4


def test_case_arguments_are_fresh_for_every_point_and_failures_become_rows(small):
    axpy = warptlm.Kernel.from_ptx(AXPY_PTX, "axpy")
    x, y = np.arange(64, dtype=np.float32), np.ones(64, np.float32)
    good = warptlm.KernelCase("axpy", axpy, 2, 32, [x, y, 2.0, 64],
                              check=lambda args, config: bool(np.array_equal(args[1], 2 * x + 1)))
    wrong = warptlm.KernelCase("axpy_wrong", axpy, 2, 32, [x, y, 2.0, 64], check=always_wrong)
    faulting = warptlm.KernelCase("axpy_oob", axpy, 2, 32, [x[:10], y[:10], 2.0, 64])
    frame = warptlm.sweep(small, {"seed": [1, 2]}, [good, wrong, faulting], workers=1)
    assert list(y) == [1.0] * 64  # the caller's arrays are inputs, never overwritten
    by = {name: frame[frame.scenario == name] for name in ("axpy", "axpy_wrong", "axpy_oob")}
    assert by["axpy"]["passed"].all()  # the second point starts from y = 1 again
    assert not by["axpy_wrong"]["passed"].any() and (by["axpy_wrong"]["message"] == "check failed").all()
    assert not by["axpy_oob"]["passed"].any()
    assert by["axpy_oob"]["error"].str.startswith("KernelError: ").all()


def test_kernel_cases_are_checked_when_made(scale):
    with pytest.raises(TypeError, match="kernel must be a warptlm.Kernel"):
        warptlm.KernelCase("k", "scale.ptx", 1, 1, [])
    with pytest.raises(TypeError, match="args must be a list or a function"):
        warptlm.KernelCase("k", scale, 1, 1, 5)
    with pytest.raises(TypeError, match="check must be a function"):
        warptlm.KernelCase("k", scale, 1, 1, [], check="yes")
    case = warptlm.KernelCase("k", scale, 1, 1, [])
    with pytest.raises(ValueError, match="listed twice"):
        warptlm.sweep("small", {}, [case, case])


def test_kernel_cases_run_on_dask(small, scale):
    pytest.importorskip("distributed")
    case = warptlm.KernelCase("scale", scale, grid=4, block=32, args=scale_args, check=scale_check)
    frame = warptlm.sweep(small, {"warp_size": [16]}, [case], workers=1, backend="dask")
    assert frame["passed"].all(), frame["error"].tolist()
