"""Cooperative launches from Python and both CLIs (tests/data/ptx/coop):
grid.sync() works in every mode with cooperative=True, traps without it,
and a grid larger than the SMs hold at once is refused alike in all modes."""
import os
import subprocess
import sys

import numpy as np
import pytest

import warptlm
from conftest import SOURCE_DIR

PTX = os.path.join(SOURCE_DIR, "tests", "data", "ptx", "coop", "coop.sm75.ptx")


def total_args(ctas, threads):
    n = ctas * threads - 7
    data = (np.arange(n, dtype=np.int32) * 37) % 101 - 50
    return data, [data, n, np.zeros(1, np.int32), np.full(ctas, -1, np.int32)]


@pytest.mark.parametrize("mode,coding", [("functional", "at"), ("timing", "at"), ("timing", "lt")])
def test_every_cta_sees_the_grids_sum_after_grid_sync(mode, coding):
    platform = warptlm.Platform("small", coding_style=coding)  # 2 SMs x 4 CTAs
    data, args = total_args(8, 64)
    kernel = warptlm.Kernel.from_ptx(PTX, "grid_total")
    result = platform.launch(kernel, 8, 64, args, mode=mode, cooperative=True)
    assert args[2][0] == data.sum()
    assert (args[3] == data.sum()).all()
    assert result.record["launch"]["cooperative"] is True


def test_without_a_cooperative_launch_grid_sync_traps():
    _, args = total_args(2, 32)
    with pytest.raises(warptlm.KernelError, match="trap"):
        warptlm.Platform("small").launch(warptlm.Kernel.from_ptx(PTX, "grid_total"), 2, 32, args)


@pytest.mark.parametrize("mode", ["functional", "timing"])
def test_a_grid_larger_than_the_sms_hold_is_refused(mode):
    _, args = total_args(9, 32)
    with pytest.raises(ValueError, match=r"its 9 CTAs must all be resident at once, but the GPU holds at most 8"):
        warptlm.Platform("small").launch(warptlm.Kernel.from_ptx(PTX, "grid_total"), 9, 32, args, mode=mode,
                                         cooperative=True)
    with pytest.raises(TypeError, match="cooperative must be True or False"):
        warptlm.Platform("small").launch(warptlm.Kernel.from_ptx(PTX, "grid_total"), 2, 32, args, cooperative=1)


@pytest.mark.parametrize("cli", ["native", "python"])
def test_exec_cooperative(tmp_path, cli):
    data, _ = total_args(4, 64)
    files = []
    for name, arr in (("in", data), ("total", np.zeros(1, np.int32)), ("seen", np.zeros(4, np.int32))):
        files.append(str(tmp_path / f"{name}.npy"))
        np.save(files[-1], arr)
    command = [os.environ["WARPTLM_CLI"]] if cli == "native" else [sys.executable, "-m", "warptlm"]
    args = ["exec", PTX, "--kernel", "grid_total", "--grid", "4", "--block", "64", "--cooperative",
            "--arg", files[0], "--arg", f"i32:{data.size}", "--arg", files[1], "--arg", files[2],
            "--stats", str(tmp_path / "stats.json")]
    run = subprocess.run(command + args, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert (np.load(files[2]) == data.sum()).all()
    import json
    with open(tmp_path / "stats.json") as f:
        assert json.load(f)["launch"]["cooperative"] is True
