"""Platform configuration: presets, overrides by name, validation errors."""

import numpy as np
import pytest

import warptlm


def test_presets_and_defaults():
    assert warptlm.presets()[:2] == ["small", "fermi"]
    assert "volta" in warptlm.presets()
    fermi = warptlm.Platform("fermi").config
    # The SLP paper's Table 2.
    assert (fermi["num_sms"], fermi["sm.threads"], fermi["warp_size"], fermi["simd_width"]) == (30, 1024, 32, 32)
    assert (fermi["sm.registers"], fermi["sm.shared_memory"], fermi["scheduler"]) == (16384, 32768, "srr")
    assert (fermi["memory.l1.size"], fermi["memory.l1.assoc"], fermi["memory.l1.line"]) == (32768, 8, 64)
    assert (fermi["memory.l2.size"], fermi["memory.l2.assoc"], fermi["memory.l2.line"]) == (1 << 20, 64, 64)
    assert (fermi["memory.dram.channels"], fermi["memory.dram.scheduler"]) == (8, "frfcfs")
    assert warptlm.Platform().config["num_sms"] == 2  # "small" is the default preset


@pytest.mark.parametrize("preset", ["gtx480", "qv100"])
def test_gpgpu_sim_presets_run_a_scenario_in_timing_mode(preset):
    """The presets that follow GPGPU-Sim's files (docs/gpgpusim-presets.md) elaborate and run."""
    r = warptlm.scenarios.run(warptlm.Platform(preset), "bfs", mode="timing")
    assert r.passed, r.message
    assert r.stats["cycles"] > 0


def test_top_level_and_nested_overrides():
    p = warptlm.Platform("small", warp_size=16, memory__l1__size=8192, **{"memory.l2.assoc": 16})
    c = p.config
    assert (c["warp_size"], c["memory.l1.size"], c["memory.l2.assoc"]) == (16, 8192, 16)
    assert p["memory__l1__size"] == 8192
    for name in ["warp_size", "simd_width", "num_sms", "scheduler", "reconvergence", "compaction",
                 "permutation", "seed"]:
        assert name in c
    nested = warptlm.Platform("small", memory={"l1": {"size": 8192}})
    assert nested.config["memory.l1.size"] == 8192
    assert warptlm.Platform("small", warp_size=np.int64(8)).config["warp_size"] == 8


def test_with_returns_a_new_platform():
    base = warptlm.Platform("small", seed=5)
    changed = base.with_(warp_size=8)
    assert base.config["warp_size"] == 32 and changed.config["warp_size"] == 8
    assert changed.config["seed"] == 5
    assert changed == warptlm.Platform("small", seed=5, warp_size=8)
    assert "warp_size=8" in repr(changed)
    c = base.config
    c["seed"] = 99  # a copy: the platform does not change
    assert base.config["seed"] == 5


def test_unknown_field_names_it_and_the_known_ones():
    with pytest.raises(ValueError, match=r"unknown configuration field 'memory.l1.sise'.*did you mean 'memory.l1.size'"):
        warptlm.Platform("small", memory__l1__sise=1)
    with pytest.raises(ValueError, match="warp_size"):
        warptlm.Platform("small", wrap_size=16)
    with pytest.raises(ValueError, match="unknown preset 'gt200'; presets: small, fermi"):
        warptlm.Platform("gt200")


@pytest.mark.parametrize("field,value,allowed", [
    ("warp_size", 24, r"an integer in \[4, 64\], a power of two"),
    ("warp_size", "32", r"an integer"),
    ("num_sms", 0, r"an integer in \[1, 1024\]"),
    ("scheduler", "fifo", r"one of 'lrr', 'gto', 'two_level', 'srr'"),
    ("reconvergence", "magic", r"one of .*'ipdom'"),
    ("compaction", "dwf", r"one of 'none', 'tbc', 'capri', 'ideal'"),
    ("memory.l1.cache_global", 1, "true or false"),
    ("memory.dram.scheduler", "random", "one of 'frfcfs', 'fcfs'"),
])
def test_bad_value_names_field_and_allowed_values(field, value, allowed):
    with pytest.raises(ValueError, match=f"{field}: must be {allowed}"):
        warptlm.Platform("small", **{field: value})


def test_cache_geometry_is_validated():
    with pytest.raises(ValueError, match="memory.l1.size: 24576 bytes do not form a power-of-two number of sets"):
        warptlm.Platform("small", memory__l1__size=24576)


def test_field_table_schemes_and_statistics():
    fields = {f["name"]: f for f in warptlm.fields()}
    assert fields["memory.l1.size"]["type"] == "int"
    assert fields["reconvergence"]["allowed"] == warptlm.schemes()["reconvergence"]
    assert fields["warp_size"]["functional"] and not fields["num_sms"]["functional"]
    assert fields["sm.clock_mhz"]["type"] == "float" and fields["memory.l1.cache_global"]["type"] == "bool"
    stats = warptlm.statistics()
    assert "simd_utilisation" in stats and "divergent_branches" in stats
    assert all(meaning for meaning in stats.values())


def test_scheme_option_fields_and_combinations():
    fields = {f["name"]: f for f in warptlm.fields()}
    for name in ["mp_ipdom.st_entries", "mp_ipdom.rt_entries"]:
        assert (fields[name]["type"], fields[name]["min"], fields[name]["max"]) == ("int", 0, 64)
        assert fields[name]["functional"]
        assert warptlm.Platform("small").config[name] == 0  # the scheme's own default
    p = warptlm.Platform("small", reconvergence="mp_ipdom", mp_ipdom__rt_entries=1)
    assert p.config["mp_ipdom.rt_entries"] == 1
    # An option of a scheme that is not selected is an error naming the field and its scheme.
    with pytest.raises(ValueError, match=r"^mp_ipdom\.rt_entries: an option of reconvergence=mp_ipdom, "
                                         r"but reconvergence is 'ipdom' \(leave it at its default 0\)$"):
        warptlm.Platform("small", mp_ipdom__rt_entries=1)
    with pytest.raises(ValueError, match=r"^sm\.cct_access_cycles: an option of reconvergence=sorted_list"):
        warptlm.Platform("fermi", reconvergence="mp_ipdom", sm__cct_access_cycles=2)
    with pytest.raises(ValueError, match=r"^capri\.entries: an option of compaction=capri, but compaction is 'tbc'"):
        warptlm.Platform("small", compaction="tbc", capri__entries=64)
    # A sweep that varies a scheme and another scheme's option together fails before running.
    with pytest.raises(ValueError, match=r"^mp_ipdom\.st_entries: an option of reconvergence=mp_ipdom"):
        warptlm.sweep(warptlm.Platform("small"),
                      {"reconvergence": ["ipdom", "mp_ipdom"], "mp_ipdom.st_entries": [2]}, ["reduction"])
