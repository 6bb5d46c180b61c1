"""Component plug-ins from Python: the example plug-in (examples/components)
registers a reconvergence scheme, a warp scheduler and a compaction unit, which
are then selected by name like the built-ins, in both modes and from both
CLIs."""

import os
import re
import subprocess
import sys

import numpy as np
import pytest

import warptlm
from conftest import DIVERGE_PTX

PLUGIN = os.environ.get("WARPTLM_EXAMPLE_PLUGIN")
pytestmark = pytest.mark.skipif(not PLUGIN, reason="WARPTLM_EXAMPLE_PLUGIN not set (run through CTest)")


def test_plugin_components_are_selected_by_name():
    warptlm.load_plugin(PLUGIN)
    warptlm.load_plugin(PLUGIN)  # a second load of one file does nothing
    assert warptlm.loaded_plugins() == [os.path.realpath(PLUGIN)]
    schemes = warptlm.schemes()
    assert "not_taken_first" in schemes["reconvergence"]
    assert "youngest_first" in schemes["scheduler"]
    platform = warptlm.Platform("small", reconvergence="not_taken_first", scheduler="youngest_first")
    functional = warptlm.scenarios.run(platform, "bitonic", mode="functional")
    timing = warptlm.scenarios.run(platform, "bitonic", mode="timing")
    assert functional.passed and timing.passed, (functional.message, timing.message)
    # A stack scheme offers one path at a time: both modes issue the same instructions.
    assert timing.stats["warp_instructions"] == functional.stats["warp_instructions"]
    assert timing.stats["thread_instructions"] == functional.stats["thread_instructions"]


def test_plugin_compaction_unit_is_selected_by_name():
    warptlm.load_plugin(PLUGIN)
    assert "adequate_tbc" in warptlm.schemes()["compaction"]
    platform = warptlm.Platform("small", compaction="adequate_tbc")
    functional = warptlm.scenarios.run(platform, "bitonic", mode="functional")
    timing = warptlm.scenarios.run(platform, "bitonic", mode="timing")
    assert functional.passed and timing.passed, (functional.message, timing.message)
    assert timing.stats["warp_instructions"] == functional.stats["warp_instructions"]
    # It decides per divergent branch, and never wrongly.
    assert functional.stats["capri_predictions"] > functional.stats["capri_compactions"] > 0
    assert functional.stats["capri_mispredictions"] == 0


def test_plugin_options_are_fields_and_sweep_like_the_builtins():
    warptlm.load_plugin(PLUGIN)
    field = {f["name"]: f for f in warptlm.fields()}["adequate_tbc.min_saving"]
    assert (field["type"], field["min"], field["max"], field["default"]) == ("int", 1, 64, 1)
    assert field["doc"].startswith("compaction adequate_tbc: ")
    with pytest.raises(ValueError, match=r"adequate_tbc\.min_saving: must be an integer in \[1, 64\], got 0"):
        warptlm.Platform("small", compaction="adequate_tbc", **{"adequate_tbc.min_saving": 0})
    frame = warptlm.sweep(warptlm.Platform("small", compaction="adequate_tbc"),
                          {"adequate_tbc.min_saving": [1, 64]}, ["bitonic"])
    by_saving = frame.set_index("adequate_tbc.min_saving")
    assert by_saving.loc[1, "capri_compactions"] > 0
    assert by_saving.loc[64, "capri_compactions"] == 0
    assert by_saving.loc[64, "capri_predictions"] == by_saving.loc[1, "capri_predictions"]


def test_a_plugin_loaded_late_shows_its_fields_and_statistics():
    # In a fresh interpreter: list first, load, list again.
    code = ("import warptlm, sys\n"
            "before = ('adequate_tbc.min_saving' in [f['name'] for f in warptlm.fields()], 'ntf_splits' in warptlm.statistics())\n"
            "warptlm.load_plugin(sys.argv[1])\n"
            "after = ('adequate_tbc.min_saving' in [f['name'] for f in warptlm.fields()], 'ntf_splits' in warptlm.statistics())\n"
            "print(before, after)\n")
    env = {k: v for k, v in os.environ.items() if k != "WARPTLM_PLUGINS"}
    out = subprocess.run([sys.executable, "-c", code, PLUGIN], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "(False, False) (True, True)"


def _first_path_after_divergence(reconvergence):
    kernel = warptlm.Kernel(DIVERGE_PTX, "diverge")
    out = np.zeros(32, np.int32)
    result = warptlm.Platform("small", reconvergence=reconvergence).launch(kernel, 1, 32, [out], trace=True)
    expect = np.where(np.arange(32) < 12, np.arange(32) * 3, -np.arange(32))
    assert (out == expect).all()
    trace = result.trace
    partial = trace[trace["mask"] != 0xFFFFFFFF]
    return int(partial["pc"].iloc[0])


def test_the_plugin_scheme_runs_its_own_policy():
    warptlm.load_plugin(PLUGIN)
    # The branch at pc 56 diverges: ipdom runs the taken side (80) first, the
    # plug-in's stack the fall-through (64).
    assert _first_path_after_divergence("ipdom") == 80
    assert _first_path_after_divergence("not_taken_first") == 64


def test_both_clis_list_the_plugin_components_alike():
    env = dict(os.environ, WARPTLM_PLUGINS=PLUGIN)
    python_cli = subprocess.run([sys.executable, "-m", "warptlm", "list", "schemes"], capture_output=True,
                                text=True, env=env)
    native_cli = subprocess.run([os.environ["WARPTLM_CLI"], "list", "schemes"], capture_output=True, text=True,
                                env=env)
    assert python_cli.returncode == native_cli.returncode == 0, python_cli.stderr + native_cli.stderr
    assert "not_taken_first" in python_cli.stdout
    assert python_cli.stdout == native_cli.stdout


def test_a_missing_plugin_is_a_value_error_naming_it():
    with pytest.raises(ValueError, match="plugin '/nonexistent/x.so': no such file"):
        warptlm.load_plugin("/nonexistent/x.so")


def test_a_bad_plugin_variable_is_the_same_error_in_both_clis():
    env = dict(os.environ, WARPTLM_PLUGINS="/nonexistent/x.so")
    python_cli = subprocess.run([sys.executable, "-m", "warptlm", "list", "schemes"], capture_output=True,
                                text=True, env=env)
    native_cli = subprocess.run([os.environ["WARPTLM_CLI"], "list", "schemes"], capture_output=True, text=True,
                                env=env)
    assert python_cli.returncode == native_cli.returncode == 2
    assert python_cli.stderr == native_cli.stderr == \
        "warptlm: WARPTLM_PLUGINS: plugin '/nonexistent/x.so': no such file\n"
    # Imported as a library, the package raises ImportError with the same words.
    library = subprocess.run([sys.executable, "-c", "import warptlm"], capture_output=True, text=True, env=env)
    assert library.returncode == 1
    assert "ImportError: WARPTLM_PLUGINS: plugin '/nonexistent/x.so': no such file" in library.stderr


def test_a_second_plugin_registering_a_taken_name_is_refused_naming_both(tmp_path):
    warptlm.load_plugin(PLUGIN)
    copy = tmp_path / "copy_of_example.so"  # another file: loaded again, its names are taken
    copy.write_bytes(open(PLUGIN, "rb").read())
    with pytest.raises(ValueError,
                       match=re.escape(f"plugin '{copy}': scheme 'not_taken_first' is already registered")):
        warptlm.load_plugin(copy)
    assert os.path.realpath(copy) not in warptlm.loaded_plugins()
