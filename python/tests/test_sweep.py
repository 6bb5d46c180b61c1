"""warptlm.sweep: rows, errors, crash and timeout rows, incremental files, resume, Dask."""

import os
import subprocess
import sys
import time

import pandas as pd
import pytest

import warptlm
from warptlm.store import read_results

GRID = {"warp_size": [8, 32], "seed": [1, 2]}
SCENARIOS = ["reduction", "collatz"]


def test_rows_hold_config_scenario_stats_and_status(small):
    df = warptlm.sweep(small, GRID, SCENARIOS, workers=2)
    assert len(df) == 8
    assert list(df[["warp_size", "seed", "scenario"]].itertuples(index=False, name=None))[:4] == [
        (8, 1, "reduction"), (8, 1, "collatz"), (8, 2, "reduction"), (8, 2, "collatz")]
    for column in ["memory.l1.size", "num_sms", "size", "passed", "error", "wall_seconds", "key"]:
        assert column in df.columns
    for stat in warptlm.statistics("functional"):
        assert stat in df.columns
    assert df["passed"].all() and (df["error"] == "").all()
    assert (df["warp_size"] == df["warp_size"]).all()
    one = warptlm.scenarios.run(small.with_(warp_size=8, seed=2), "collatz")
    row = df[(df.warp_size == 8) & (df.seed == 2) & (df.scenario == "collatz")].iloc[0]
    assert row["warp_instructions"] == one.stats["warp_instructions"]


def test_bad_grid_raises_before_running(small):
    with pytest.raises(ValueError, match="unknown configuration field 'wrap_size'"):
        warptlm.sweep(small, {"wrap_size": [8]}, ["reduction"])
    with pytest.raises(ValueError, match="warp_size: must be"):
        warptlm.sweep(small, {"warp_size": [8, 12]}, ["reduction"])
    with pytest.raises(ValueError, match="unknown scenario"):
        warptlm.sweep(small, {}, ["nope"])
    with pytest.raises(ValueError, match="size '100'"):
        warptlm.sweep(small, {}, ["reduction:100"])


def test_a_list_of_points_runs_as_given_and_shares_keys_with_the_product(small, tmp_path):
    """Configurations that are not a product ([{...}, {...}]) run in the order given; a point equal
    to a product's point has the same key, so a store answers for both."""
    points = [{"reconvergence": "ipdom"}, {"reconvergence": "mp_ipdom", "mp_ipdom.st_entries": 4},
              {"warp_size": 8}]
    store = tmp_path / "runs.csv"
    df = warptlm.sweep(small, points, ["reduction"], workers=2, out=store)
    assert list(zip(df["reconvergence"], df["mp_ipdom.st_entries"], df["warp_size"])) == [
        ("ipdom", 0, 32), ("mp_ipdom", 4, 32), ("ipdom", 0, 8)]
    product = warptlm.sweep(small, {"warp_size": [8, 16]}, ["reduction"], workers=2, out=store)
    assert product["key"].iloc[0] == df["key"].iloc[2]
    assert len(read_results(store)) == 4  # warp_size=8 was not run again
    with pytest.raises(ValueError, match="point 1 .* same configuration as point 0"):
        warptlm.sweep(small, [{"warp_size": 8}, {"warp_size": 8}], ["reduction"])
    with pytest.raises(ValueError, match="unknown configuration field 'wrap_size'"):
        warptlm.sweep(small, [{"warp_size": 8}, {"wrap_size": 8}], ["reduction"])
    with pytest.raises(ValueError, match="empty list of points"):
        warptlm.sweep(small, [], ["reduction"])
    with pytest.raises(TypeError, match="list of points"):
        warptlm.sweep(small, [("warp_size", 8)], ["reduction"])


def test_crash_fault_and_timeout_become_error_rows(monkeypatch, small, tmp_path):
    monkeypatch.setenv("WARPTLM_DEBUG_CRASH", "seed=2,scenario=reduction")
    out = tmp_path / "r.csv"
    df = warptlm.sweep(small, {"seed": [1, 2], "instruction_budget": [10**9]}, ["reduction", "collatz"],
                       workers=2, out=out)
    crashed = df[(df.seed == 2) & (df.scenario == "reduction")].iloc[0]
    assert crashed["error"].startswith("SimulationCrash: the simulation process died with signal SIGABRT")
    assert not crashed["passed"] and pd.isna(crashed["warp_instructions"])
    assert (df[df.index != crashed.name]["error"] == "").all()
    monkeypatch.delenv("WARPTLM_DEBUG_CRASH")
    df = warptlm.sweep(small, {"instruction_budget": [1000, 10**9]}, ["collatz"], workers=2)
    fault, ok = df.iloc[0], df.iloc[1]
    assert fault["error"].startswith("KernelError: kernel 'collatz") and "runaway kernel" in fault["error"]
    assert not fault["passed"] and ok["passed"] and ok["error"] == ""
    # About 30 s of simulation, killed after half a second; the next point still runs.
    df = warptlm.sweep(small, {}, ["collatz:4194304", "collatz"], workers=1, timeout=0.5)
    assert df.iloc[0]["error"].startswith(
        "SimulationTimeout: scenario collatz (size 4194304, functional): simulation killed after its time limit of 0.5 s")
    assert df.iloc[1]["passed"]


@pytest.mark.parametrize("suffix", ["csv", "db"])
def test_rows_are_stored_and_resume_skips_them(small, tmp_path, suffix):
    out = tmp_path / f"r.{suffix}"
    first = warptlm.sweep(small, {"warp_size": [8, 16]}, ["reduction"], workers=1, out=out)
    stored = read_results(out)
    assert len(stored) == 2 and set(stored["key"]) == set(first["key"])
    again = warptlm.sweep(small, {"warp_size": [8, 16, 32]}, ["reduction"], workers=1, out=out)
    stored2 = read_results(out)
    assert len(stored2) == 3  # only warp 32 ran
    # The resumed rows are the stored ones (a re-run would time differently).
    assert list(again["wall_seconds"][:2]) == list(first["wall_seconds"])
    fresh = warptlm.sweep(small, {"warp_size": [8]}, ["reduction"], workers=1, out=out, resume=False)
    assert len(read_results(out)) == 1 and fresh["wall_seconds"][0] != first["wall_seconds"][0]


def test_resume_after_an_interrupted_sweep(tmp_path):
    out = tmp_path / "r.csv"
    script = (
        "import warptlm\n"
        f"warptlm.sweep(warptlm.Platform('small'), {{'seed': list(range(1, 41))}}, ['collatz:8192'], "
        f"workers=1, out={str(out)!r})\n")
    proc = subprocess.Popen([sys.executable, "-c", script], env=dict(os.environ))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if out.exists() and out.read_text().count("\n") >= 4:  # header + 3 rows
            break
        time.sleep(0.02)
    proc.kill()  # as a crash or Ctrl-C of the whole session would
    proc.wait()
    before = read_results(out)
    assert 3 <= len(before) < 40
    df = warptlm.sweep(warptlm.Platform("small"), {"seed": list(range(1, 41))}, ["collatz:8192"], workers=2,
                       out=out)
    after = read_results(out)
    assert len(df) == 40 and df["passed"].all()
    assert len(after) == 40 and after["key"].is_unique
    kept = after.set_index("key").loc[before["key"], "wall_seconds"]
    assert list(kept) == list(before["wall_seconds"])


def test_dask_local_cluster_gives_the_same_rows(small):
    pytest.importorskip("distributed")
    grid = {"warp_size": [8, 32]}
    local = warptlm.sweep(small, grid, ["reduction", "hashprobe"], workers=2)
    dask = warptlm.sweep(small, grid, ["reduction", "hashprobe"], workers=2, backend="dask")
    columns = [c for c in local.columns if c != "wall_seconds"]
    pd.testing.assert_frame_equal(local[columns], dask[columns])


def test_timing_sweep_rows_carry_cycles_and_stalls(small, tmp_path):
    out = tmp_path / "timing.csv"
    frame = warptlm.sweep(small, {"scheduler": ["lrr", "gto"]}, ["reduction"], workers=2, out=out,
                          mode="timing")
    assert list(frame["scheduler"]) == ["lrr", "gto"]
    assert frame["passed"].all(), frame["error"].tolist()
    assert (frame["mode"] == "timing").all()
    assert (frame["cycles"] > 0).all() and (frame["sm.slot_issued"] > 0).all()
    # Same work under either policy; the timing may differ.
    assert frame["warp_instructions"].nunique() == 1
    assert not any(c.startswith("sm0.") for c in frame.columns)  # breakdowns stay in single runs
    stored = read_results(out).set_index("key").loc[frame["key"]]  # stored in completion order
    assert list(stored["cycles"]) == list(frame["cycles"])
    # A functional sweep of the same points is a different set of rows.
    functional = warptlm.sweep(small, {"scheduler": ["lrr", "gto"]}, ["reduction"], workers=2)
    assert "cycles" not in functional.columns
    with pytest.raises(ValueError, match="mode must be"):
        warptlm.sweep(small, {}, ["reduction"], mode="cycles")


def test_timing_sweep_breakdown_keeps_per_sm_statistics(small, tmp_path):
    out = tmp_path / "breakdown.csv"
    frame = warptlm.sweep(small, {"num_sms": [1, 2]}, ["reduction"], workers=2, out=out, mode="timing",
                          breakdown=True)
    assert frame["passed"].all(), frame["error"].tolist()
    wide = warptlm.expand_breakdown(frame)
    assert "breakdown" not in wide.columns
    # One SM: sm0 only; two SMs: sm0 and sm1, whose instructions add up to the GPU's.
    one, two = wide.iloc[0], wide.iloc[1]
    assert pd.isna(one["sm1.warp_instructions"]) and one["sm0.warp_instructions"] == one["warp_instructions"]
    assert two["sm0.warp_instructions"] + two["sm1.warp_instructions"] == two["warp_instructions"]
    # The JSON column survives the CSV store, and resuming keeps the rows.
    stored = warptlm.expand_breakdown(read_results(out)).set_index("key").loc[frame["key"]]
    assert list(stored["sm0.warp_instructions"]) == list(wide["sm0.warp_instructions"])
    again = warptlm.sweep(small, {"num_sms": [1, 2]}, ["reduction"], workers=2, out=out, mode="timing",
                          breakdown=True)
    assert list(again["wall_seconds"]) == list(frame["wall_seconds"])
    with pytest.raises(ValueError, match="breakdown=True needs mode='timing'"):
        warptlm.sweep(small, {}, ["reduction"], breakdown=True)
    with pytest.raises(ValueError, match="no 'breakdown' column"):
        warptlm.expand_breakdown(frame.drop(columns="breakdown"))


@pytest.mark.parametrize("suffix", [".csv", ".db"])
def test_timing_sweep_columns_name_configuration_and_statistics_apart(small, tmp_path, suffix):
    # sm.warps and sm.ctas are configuration fields (limits per SM); a statistic
    # of the same name once shared their column, broke SQLite and grew the CSV on resume.
    out = tmp_path / f"r{suffix}"
    frame = warptlm.sweep(small, {"warp_size": [16, 32]}, ["hashprobe"], workers=2, out=out, mode="timing")
    assert frame.columns.is_unique
    assert list(frame["sm.warps"]) == [16, 16] and list(frame["sm.ctas"]) == [4, 4]  # the configuration
    assert (frame["sm.ctas_run"] == frame["ctas"]).all() and (frame["sm.warps_run"] == frame["warps"]).all()
    fields = {f["name"] for f in warptlm.fields()}
    assert not fields & set(warptlm.statistics()), "a statistic named like a configuration field"
    width = len(read_results(out).columns)
    for _ in range(2):  # resuming neither reruns nor adds columns
        again = warptlm.sweep(small, {"warp_size": [16, 32]}, ["hashprobe"], workers=2, out=out, mode="timing")
        assert list(again["wall_seconds"]) == list(frame["wall_seconds"])
        stored = read_results(out)
        assert len(stored.columns) == width and len(stored) == 2
        assert not stored.drop(columns=["error"]).isna().any().any()  # no column of NaN


def test_a_store_that_cannot_be_opened_leaves_no_file(tmp_path):
    from warptlm.store import open_store

    path = tmp_path / "r.db"
    with pytest.raises(ValueError, match="columns named twice: a"):
        open_store(path, ["a", "b", "a"], resume=True)
    assert not path.exists()


def test_a_cta_too_big_for_the_warp_slots_is_a_row_that_says_why(small):
    # docs/python.md: in timing mode a CTA must fit an SM's warp slots,
    # min(sm.warps, sm.threads / warp_size); small has 16, reduction's CTA 256 threads.
    frame = warptlm.sweep(small, {"warp_size": [8, 16]}, ["reduction"], workers=2, mode="timing")
    assert list(frame["passed"]) == [False, True]
    assert frame.iloc[0]["error"] == (
        "ValueError: launch: kernel 'reduce_interleaved' with block (256,1,1): a CTA needs 32 warp slots "
        "(256 threads in warps of 8), an SM has 16 (min(sm.warps = 16, sm.threads / warp_size = 512 / 8))")
    fits = warptlm.sweep(small.with_(**{"sm.warps": 32}), {"warp_size": [8]}, ["reduction"], mode="timing")
    assert fits["passed"].all()


def test_a_resumed_sweeps_progress_bar_says_what_it_skipped(small, tmp_path, capsys):
    out = tmp_path / "r.csv"
    warptlm.sweep(small, {"seed": [1, 2]}, ["reduction"], workers=2, out=out, progress=False)
    capsys.readouterr()
    warptlm.sweep(small, {"seed": [1, 2, 3]}, ["reduction"], workers=2, out=out, progress=True)
    err = capsys.readouterr().err
    assert "2 stored, skipped" in err and "3/3" in err
