"""The statistics registry from Python: one name, unit and meaning per
statistic, what runs of each mode report, docs/statistics.md current, and
sweeps that record only what they are asked to."""

import fnmatch
import os
import re

import numpy as np
import pytest

import warptlm
from conftest import AXPY_PTX, SOURCE_DIR
from warptlm.store import read_results


def _matches(key, names):
    """The registry name a reported key belongs to ("sm3.cycles" -> "sm<N>.cycles")."""
    if key in names:
        return key
    pattern = re.sub(r"(?<=[a-z])\d+(?=\.)", "<N>", key)
    return pattern if pattern in names else None


@pytest.mark.parametrize("mode", ["functional", "timing"])
def test_every_reported_statistic_is_listed_and_every_listed_one_reported(small, mode):
    listed = warptlm.statistics(mode)
    r = warptlm.scenarios.run(small, "hashprobe", mode=mode)
    seen = set()
    for key in r.stats:
        name = _matches(key, listed)
        assert name is not None, f"{key} is not in warptlm.statistics({mode!r})"
        seen.add(name)
    assert seen == set(listed)
    for s in listed.values():
        assert s.unit and s.meaning and str(s) == s.meaning and mode in s.modes
    assert set(warptlm.statistics("functional")) < set(warptlm.statistics("timing"))
    with pytest.raises(ValueError, match="mode must be"):
        warptlm.statistics("cycle")


def test_one_quantity_one_name_in_both_modes(small):
    # SIMD utilisation is over the SIMD width in both modes, activity factor over the warp.
    kernel = warptlm.Kernel.from_ptx(AXPY_PTX, "axpy")
    platform = small.with_(warp_size=16)  # 16-lane warps on the small preset's 32-lane SIMD unit
    runs = {}
    for mode in ("functional", "timing"):
        x, y = np.arange(100, dtype=np.float32), np.ones(100, np.float32)
        runs[mode] = platform.launch(kernel, 4, 32, [x, y, 2.0, 100], mode=mode).stats
    f, t = runs["functional"], runs["timing"]
    assert f["simd_utilisation"] == t["simd_utilisation"] and f["activity_factor"] == t["activity_factor"]
    assert f["simd_utilisation"] == pytest.approx(f["activity_factor"] / 2)
    assert f["activity_factor"] == pytest.approx(f["thread_instructions"] / (f["warp_instructions"] * 16))
    fields = {field["name"] for field in warptlm.fields()}
    assert not fields & set(warptlm.statistics()), "a statistic shares its name with a configuration field"


def test_the_statistics_page_is_current():
    with open(os.path.join(SOURCE_DIR, "docs", "statistics.md"), encoding="utf-8") as f:
        page = f.read()
    assert page == warptlm._core.list_text("statistics", True), \
        "docs/statistics.md is stale: regenerate it with `build/warptlm list statistics --markdown`"


def test_sweeps_record_the_statistics_they_are_asked_for(small, tmp_path):
    out = tmp_path / "r.csv"
    frame = warptlm.sweep(small, {"scheduler": ["lrr", "gto"]}, ["reduction"], workers=2, mode="timing",
                          record=["ipc", "cycles", "sm.slot_*"], out=out)
    stats = [c for c in frame.columns if c in warptlm.statistics("timing")]
    slots = fnmatch.filter(warptlm.statistics("timing"), "sm.slot_*")
    assert stats == ["cycles", "ipc"] + slots
    assert len(read_results(out).columns) == len(frame.columns)
    assert "scheduler" in frame.columns and frame["passed"].all()
    with pytest.raises(ValueError, match=r"record: 'ipcc' matches no timing statistic \(did you mean 'ipc'"):
        warptlm.sweep(small, {}, ["reduction"], mode="timing", record=["ipcc"])
    with pytest.raises(ValueError, match="matches no functional statistic"):
        warptlm.sweep(small, {}, ["reduction"], record="cycles")  # a timing statistic


@pytest.mark.parametrize("timeout", [0, -1, "5", True])
def test_a_timeout_must_be_a_positive_number(small, timeout):
    kernel = warptlm.Kernel.from_ptx(AXPY_PTX, "axpy")
    with pytest.raises(ValueError, match="timeout must be a positive number"):
        small.launch(kernel, 1, 4, [np.zeros(4, np.float32), np.zeros(4, np.float32), 1.0, 4], timeout=timeout)
    with pytest.raises(ValueError, match="timeout must be a positive number"):
        warptlm.scenarios.run(small, "reduction", timeout=timeout)
    with pytest.raises(ValueError, match="timeout must be a positive number"):
        warptlm.sweep(small, {}, ["reduction"], timeout=timeout)
