"""Tensor cores from Python and both CLIs (tests/data/ptx/tensor): a WMMA
GEMM on float16 numpy arrays gives numpy's product exactly (small integers),
in both modes and through `exec`; the tensor-core unit's fields are
configuration like any other, checked by name; and a tensor-core
instruction in divergent code is a KernelError naming the lane."""
import os
import subprocess
import sys

import numpy as np
import pytest

import warptlm
from conftest import SOURCE_DIR

PTX = os.path.join(SOURCE_DIR, "tests", "data", "ptx", "tensor", "tensor.sm80.ptx")


def operands(m, n, k):
    rng = np.random.default_rng(21)
    a = rng.integers(-8, 9, (m, k)).astype(np.float16)           # row-major A
    b_t = rng.integers(-8, 9, (n, k)).astype(np.float16)         # B column-major: B^T row-major
    c = rng.integers(-20, 21, (m, n)).astype(np.float32)
    return a, b_t, c


def launch(platform, mode, m=32, n=48, k=64):
    a, b_t, c = operands(m, n, k)
    d = np.zeros((m, n), np.float32)
    kernel = warptlm.Kernel.from_ptx(PTX, "wmma_f16_f32")
    result = platform.launch(kernel, (1, m // 16), 32 * (n // 16), [a, b_t, c, d, m, n, k, np.float32(2)], mode=mode)
    want = 2 * (a.astype(np.float64) @ b_t.astype(np.float64).T + c)
    return d, want, result


@pytest.mark.parametrize("mode", ["functional", "timing"])
def test_a_wmma_gemm_on_float16_arrays_is_exact(mode):
    d, want, _ = launch(warptlm.Platform("small"), mode)
    np.testing.assert_array_equal(d, want)


def test_the_tensor_units_fields_configure_the_timing():
    fast = launch(warptlm.Platform("small", **{"sm.tensor.latency": 10}), "timing")[2].stats["cycles"]
    slow = launch(warptlm.Platform("small", **{"sm.tensor.latency": 1000}), "timing")[2].stats["cycles"]
    assert slow > fast + 1000
    assert warptlm.Platform("qv100").config["sm.tensor.interval"] == 64
    with pytest.raises(ValueError, match="sm.tensor.units"):
        warptlm.Platform("small", **{"sm.tensor.units": 0})


def test_divergent_wmma_is_a_kernel_error_naming_the_lane():
    kernel = warptlm.Kernel.from_ptx(PTX, "wmma_divergent")
    a = np.ones(256, np.float16)
    with pytest.raises(warptlm.KernelError, match="every lane of the warp executes it, but lane 1 did not"):
        warptlm.Platform("small").launch(kernel, 1, 32, [a, np.zeros(32, np.float32)])


@pytest.mark.parametrize("cli", ["native", "python"])
def test_exec_runs_the_gemm_from_npy_files(tmp_path, cli):
    m, n, k = 16, 32, 32
    a, b_t, c = operands(m, n, k)
    files = []
    for name, arr in (("a", a), ("b", b_t), ("c", c), ("d", np.zeros((m, n), np.float32))):
        path = tmp_path / f"{name}.npy"
        np.save(path, arr)
        files.append(str(path))
    args = [arg for f in files for arg in ("--arg", f)] + ["--arg", f"i32:{m}", "--arg", f"i32:{n}",
                                                           "--arg", f"i32:{k}", "--arg", "f32:1"]
    command = [os.environ["WARPTLM_CLI"]] if cli == "native" else [sys.executable, "-m", "warptlm"]
    run = subprocess.run(command + ["exec", PTX, "--kernel", "wmma_f16_f32", "--grid", "1,1", "--block", "64"] + args,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    np.testing.assert_array_equal(np.load(files[3]), a.astype(np.float64) @ b_t.astype(np.float64).T + c)
