"""printf and assert from kernels: Result.output, and a failed assert's KernelError."""
import os
import subprocess
import sys

import numpy as np
import pytest

import warptlm
from conftest import SOURCE_DIR

PTX = os.path.join(SOURCE_DIR, "tests", "data", "ptx", "printf")
HELLO = ("thread 0 of 3: 0.00 str a 0 0.0e+00|0   |ff %\n"
         "thread 1 of 3: 1.50 str b 100000000000 1.0e-03|1   |100 %\n"
         "thread 2 of 3: 3.00 str c 200000000000 2.0e-03|2   |101 %\n")


@pytest.mark.parametrize("mode", ["functional", "timing"])
@pytest.mark.parametrize("compiler", ["clang", "nvcc"])
def test_printf_text_is_the_results_output(mode, compiler):
    k = warptlm.Kernel.from_ptx(os.path.join(PTX, f"printf.{compiler}.ptx"), "_Z5helloPii")
    out = np.zeros(4, np.int32)
    r = warptlm.Platform("small").launch(k, 1, 4, [out, np.int32(3)], mode=mode)
    assert r.output == HELLO
    assert list(out) == [0, 1, 2, 3]


def test_a_failed_assert_raises_a_kernel_error_with_what_was_printed():
    k = warptlm.Kernel.from_ptx(os.path.join(PTX, "printf.nvcc.ptx"), "_Z5checkPKii")
    with pytest.raises(warptlm.KernelError, match=r"assertion `in\[t\] < limit` failed \(printf\.cu:32, in ") as e:
        warptlm.Platform("small").launch(k, 1, 4, [np.array([1, 5, 2, 9], np.int32), np.int32(4)])
    assert e.value.thread == (1, 0, 0)
    assert e.value.output == "checking 1\nchecking 5\nchecking 2\nchecking 9\n"


def test_both_clis_print_the_kernels_output_before_the_summary_and_agree(tmp_path):
    ptx = os.path.join(PTX, "printf.clang.ptx")
    runs = []
    for name, cli in (("native", [os.environ["WARPTLM_CLI"]]), ("python", [sys.executable, "-m", "warptlm"])):
        out = tmp_path / f"{name}.npy"
        np.save(out, np.zeros(4, np.int32))
        argv = ["exec", ptx, "--kernel", "_Z5helloPii", "--grid", "1", "--block", "4", "--arg", str(out),
                "--arg", "i32:3"]
        runs.append(subprocess.run([*cli, *argv], capture_output=True, text=True, check=True).stdout.splitlines())
    native, python = runs
    assert native[1:4] == HELLO.splitlines()
    assert native[4].startswith("  warps")
    assert python[1:5] == native[1:5]
