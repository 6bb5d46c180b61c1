"""warptlm.scenarios: list, describe, run against the host references."""

import json

import pytest

import warptlm


def test_list_and_describe():
    names = warptlm.scenarios.list()
    assert names[:5] == ["reduction", "bitonic", "mandelbrot", "collatz", "hashprobe"]
    info = warptlm.scenarios.describe("reduction")
    assert info["entry"] and info["sizes"]["test"] == 4096 and info["n_multiple"] == 256
    assert "Programmatic" in info["divergence"] or "programmatic" in [d.lower() for d in info["divergence"]]
    with pytest.raises(ValueError, match="unknown scenario 'nope'; known scenarios: reduction"):
        warptlm.scenarios.describe("nope")


@pytest.mark.parametrize("name", ["reduction", "bitonic", "mandelbrot", "collatz", "hashprobe"])
@pytest.mark.parametrize("warp_size", [8, 32])
def test_run_passes_the_host_reference(small, name, warp_size):
    r = warptlm.scenarios.run(small.with_(warp_size=warp_size), name)
    assert r.passed is True, r.message
    assert r.config["warp_size"] == warp_size and r.stats["warp_instructions"] > 0
    assert r.n == warptlm.scenarios.describe(name)["sizes"]["test"]


def test_every_scenario_runs(small):
    for name in warptlm.scenarios.list():
        assert warptlm.scenarios.run(small, name).passed, name


def test_sizes_seeds_and_traces(small):
    a = warptlm.scenarios.run(small, "collatz", size=256)
    assert a.n == 256 and a.passed
    # Inputs come from the seed: the platform's by default, or the seed parameter.
    b = warptlm.scenarios.run(small.with_(seed=7), "collatz", size=256)
    c = warptlm.scenarios.run(small, "collatz", size=256, seed=7)
    assert b.stats == c.stats and b.stats != a.stats
    t = warptlm.scenarios.run(small, "reduction", trace=True).trace
    assert len(t) == warptlm.scenarios.run(small, "reduction").stats["warp_instructions"]
    assert t["mask"].max() == 0xFFFFFFFF


def test_run_errors(small):
    with pytest.raises(ValueError, match="size"):
        warptlm.scenarios.run(small, "reduction", size=100)  # not a multiple of 256
    with pytest.raises(ValueError, match="unknown scenario"):
        warptlm.scenarios.run(small, "nope")
    with pytest.raises(TypeError, match="unknown scenario parameter"):
        warptlm.scenarios.run(small, "reduction", warp_size=8)
    with pytest.raises(ValueError, match="mode must be"):
        warptlm.scenarios.run(small, "reduction", mode="cycle")


def test_timing_mode_runs_the_scenario_with_cycles(small):
    functional = warptlm.scenarios.run(small, "reduction")
    timing = warptlm.scenarios.run(small, "reduction", mode="timing")
    assert timing.passed, timing.message
    assert timing.stats["warp_instructions"] == functional.stats["warp_instructions"]
    assert timing.stats["cycles"] > 0
    assert 0 < timing.stats["ipc"] <= small.config["num_sms"] * small.config["sm.schedulers"]


def test_a_runaway_scenario_is_a_kernel_error(small):
    with pytest.raises(warptlm.KernelError, match="runaway kernel") as info:
        warptlm.scenarios.run(small.with_(instruction_budget=1000), "collatz")
    assert info.value.kernel and info.value.pc is not None


def test_timing_mode_writes_a_perfetto_timeline_and_a_vcd(small, tmp_path):
    timeline, vcd = tmp_path / "warps.json", tmp_path / "top.vcd"
    result = warptlm.scenarios.run(small, "reduction", mode="timing", timeline=timeline, vcd=vcd)
    events = json.loads(timeline.read_text())["traceEvents"]
    slices = [e for e in events if e["ph"] == "X"]
    # One slice per issued warp instruction, on one track per (SM, warp).
    assert len(slices) == result.stats["warp_instructions"]
    assert {e["pid"] for e in slices} <= set(range(small.config["num_sms"]))
    assert len({(e["pid"], e["tid"]) for e in slices}) == result.stats["warps"]
    assert any(e["ph"] == "M" and e["name"] == "thread_name" for e in events)
    assert "$enddefinitions" in vcd.read_text()
    with pytest.raises(ValueError, match="timing model"):
        warptlm.scenarios.run(small, "reduction", timeline=timeline)
