"""Half-precision kernels from Python and from both CLIs: numpy float16
arrays are .f16 buffers, and nvcc's code for cuda_fp16.h (tests/data/ptx/half)
gives numpy's float16 arithmetic (one rounding of the exact result) bit for
bit, in both modes and through `exec` with .npy files."""
import os
import subprocess
import sys

import numpy as np
import pytest

import warptlm
from conftest import SOURCE_DIR

PTX = os.path.join(SOURCE_DIR, "tests", "data", "ptx", "half", "half.sm80.ptx")
N = 300


def operands():
    rng = np.random.default_rng(5)
    # Finite values of every magnitude, subnormals included.
    bits = rng.integers(0, 0x7c00, size=(3, N), dtype=np.uint16) | (rng.integers(0, 2, size=(3, N), dtype=np.uint16) << 15)
    return [b.view(np.float16) for b in bits]


def expected(a, b):
    with np.errstate(all="ignore"):
        return {0: a + b, 1: a - b, 2: a * b, 4: np.minimum(a, b), 5: np.maximum(a, b), 6: -a, 7: np.abs(a)}


@pytest.mark.parametrize("mode", ["functional", "timing"])
def test_float16_arrays_give_numpys_float16_arithmetic(mode):
    a, b, c = operands()
    out = np.zeros(14 * N, np.float16)
    kernel = warptlm.Kernel.from_ptx(PTX, "f16_ops")
    warptlm.Platform("small").launch(kernel, (N + 63) // 64, 64, [a, b, c, out, N], mode=mode)
    for k, want in expected(a, b).items():
        got = out[k * N:(k + 1) * N]
        same = (got.view(np.uint16) == want.view(np.uint16)) | (np.isnan(got) & np.isnan(want))
        assert same.all(), f"op {k}: first difference at {np.flatnonzero(~same)[:3]}"


@pytest.mark.parametrize("cli", ["native", "python"])
def test_exec_with_float16_npy_files_writes_the_results(tmp_path, cli):
    a, b, c = operands()
    files = []
    for name, arr in (("a", a), ("b", b), ("c", c), ("out", np.zeros(14 * N, np.float16))):
        path = tmp_path / f"{name}.npy"
        np.save(path, arr)
        files.append(str(path))
    args = [arg for f in files for arg in ("--arg", f)] + ["--arg", f"i32:{N}"]
    command = ([os.environ["WARPTLM_CLI"]] if cli == "native" else [sys.executable, "-m", "warptlm"])
    run = subprocess.run(command + ["exec", PTX, "--kernel", "f16_ops", "--grid", str((N + 63) // 64), "--block", "64"] + args,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    out = np.load(files[3])
    assert out.dtype == np.float16
    np.testing.assert_array_equal(out[:N].view(np.uint16), expected(a, b)[0].view(np.uint16))
