"""The two CLIs agree: `warptlm` (C++) and `python3 -m warptlm` take the same
options for run and exec, print the same lists and errors, and write the same
run records; output folders and `diff`."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import warptlm
from conftest import AXPY_PTX, SOURCE_DIR

# CTest names the C++ CLI; by hand, it sits at the top of the build tree (build/python/warptlm/..).
CLI = os.environ.get("WARPTLM_CLI") or os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(warptlm.__file__)))), "warptlm")


pytestmark = pytest.mark.skipif(not os.access(CLI, os.X_OK), reason="the C++ CLI is not built next to the package")


def both(*args, cwd=None):
    """(C++ result, Python result) of one command line."""
    env = dict(os.environ)
    c = subprocess.run([CLI, *args], capture_output=True, text=True, cwd=cwd, env=env)
    p = subprocess.run([sys.executable, "-m", "warptlm", *args], capture_output=True, text=True, cwd=cwd,
                       env=env)
    return c, p


def without_wall_time(text):
    return "\n".join(line for line in text.splitlines() if "wall time" not in line)


def comparable(path):
    record = json.loads(open(path).read())
    record.pop("wall_seconds")
    return record


def test_list_is_the_same_text_in_both():
    for section in ([], ["presets"], ["scenarios"], ["schemes"], ["statistics"], ["fields"]):
        c, p = both("list", *section)
        assert c.returncode == p.returncode == 0
        assert c.stdout == p.stdout
    assert both("list", "statistics", "--markdown")[0].stdout == both("list", "statistics", "--markdown")[1].stdout


@pytest.mark.parametrize("options", [[], ["--markers"], ["--lowered", "--reconverging"], ["--reconverging-dot"]])
def test_analyze_is_the_same_text_in_both(options):
    ptx = os.path.join(SOURCE_DIR, "scenarios", "hashprobe", "kernel.ptx")
    c, p = both("analyze", ptx, *options)
    assert c.returncode == p.returncode == 0
    assert c.stdout == p.stdout and "reconv" in c.stdout or "digraph" in c.stdout


def test_version_is_one_string_everywhere():
    c, p = both("--version")
    assert c.stdout.strip() == p.stdout.strip() == f"warptlm {warptlm.__version__}"
    with open(os.path.join(SOURCE_DIR, "VERSION")) as f:
        assert warptlm.__version__ == f.read().strip()


@pytest.mark.parametrize("mode", ["functional", "timing"])
def test_run_writes_the_same_record_trace_and_summary(tmp_path, mode):
    args = ["run", "hashprobe", "--mode", mode, "--warp-size", "16", "--set", "scheduler=gto", "--seed", "3"]
    c = subprocess.run([CLI, *args, "--stats", str(tmp_path / "c.json"), "--trace", str(tmp_path / "c.csv")],
                       capture_output=True, text=True)
    p = subprocess.run([sys.executable, "-m", "warptlm", *args, "--stats", str(tmp_path / "p.json"), "--trace",
                        str(tmp_path / "p.csv")], capture_output=True, text=True)
    assert (tmp_path / "c.csv").read_text() == (tmp_path / "p.csv").read_text()
    header = (tmp_path / "c.csv").read_text().splitlines()[0]
    assert header == ("cycle" if mode == "timing" else "step") + ",sm,warp,split,pc,mask,line,instruction"
    assert c.returncode == p.returncode == 0, c.stderr + p.stderr
    assert without_wall_time(c.stdout) == without_wall_time(p.stdout)
    record = comparable(tmp_path / "c.json")
    assert record == comparable(tmp_path / "p.json")
    assert record["command"] == "run" and record["mode"] == mode
    assert record["scenario"] == {"name": "hashprobe", "size": "test", "n": record["scenario"]["n"], "seed": 3}
    assert record["config"]["warp_size"] == 16 and record["config"]["scheduler"] == "gto"
    assert record["kernel"]["source"] == "scenarios/hashprobe/kernel.ptx" and record["passed"] is True


@pytest.mark.parametrize("mode", ["functional", "timing"])
def test_exec_runs_a_users_kernel_the_same_in_both(tmp_path, mode):
    (tmp_path / "k.ptx").write_text(AXPY_PTX)
    for who in ("c", "p"):
        np.save(tmp_path / f"x_{who}.npy", np.arange(100, dtype=np.float32))
        np.save(tmp_path / f"y_{who}.npy", np.full(100, 7, dtype=np.float32))
    common = ["exec", "k.ptx", "--kernel", "axpy", "--grid", "2", "--block", "64", "--mode", mode,
              "--preset", "small", "--budget", "100000"]
    c = subprocess.run([CLI, *common, "--arg", "x_c.npy", "--arg", "y_c.npy", "--arg", "f32:-3", "--arg",
                        "u32:100", "--stats", "c.json"], capture_output=True, text=True, cwd=tmp_path)
    p = subprocess.run([sys.executable, "-m", "warptlm", *common, "--arg", "x_p.npy", "--arg", "y_p.npy", "--arg",
                        "f32:-3", "--arg", "u32:100", "--stats", "p.json"], capture_output=True, text=True,
                       cwd=tmp_path)
    assert c.returncode == p.returncode == 0, c.stderr + p.stderr
    expected = np.float32(-3) * np.arange(100, dtype=np.float32) + np.float32(7)
    assert np.array_equal(np.load(tmp_path / "y_c.npy"), expected)
    assert np.array_equal(np.load(tmp_path / "y_p.npy"), expected)
    assert without_wall_time(c.stdout).replace("_c.npy", "") == without_wall_time(p.stdout).replace("_p.npy", "")
    record = comparable(tmp_path / "c.json")
    assert record == comparable(tmp_path / "p.json")
    assert record["command"] == "exec" and record["launch"]["grid"] == [2, 1, 1]
    if mode == "timing":
        assert record["stats"]["cycles"] > 0


@pytest.mark.parametrize("args", [
    ["run", "reduction", "--set", "warpsize=16"],
    ["run", "reduction", "--warp-size", "24"],
    ["run", "reduction", "--set", "warp_size=24"],
    ["run", "reduction", "--mode", "fast"],
    ["run", "reduction", "--timeline", "t.json"],
    ["run", "nosuch"],
    ["run", "reduction", "--preset", "fremi"],
    ["exec", "missing.ptx", "--kernel", "k", "--block", "1"],
    ["exec", "k.ptx", "--kernel", "nope", "--block", "1"],
    ["exec", "k.ptx", "--kernel", "axpy", "--block", "0"],
    ["exec", "k.ptx", "--kernel", "axpy", "--block", "4", "--arg", "i32:1"],
    ["exec", "k.ptx", "--kernel", "axpy", "--block", "4", "--arg", "q7:1"],
    ["exec", "k.ptx", "--kernel", "axpy", "--block", "4", "--arg", "i16:70000"],
    ["exec", "k.ptx", "--kernel", "axpy", "--block", "4", "--arg", "f32:1e39"],
    ["exec", "k.ptx", "--kernel", "axpy", "--block", "4,0", "--arg", "q7:1"],
    ["exec", "missing.ptx", "--kernel", "axpy", "--block", "4", "--arg", "u8:-129"],
    ["analyze", "missing.ptx"],
])
def test_errors_are_worded_alike_with_the_same_status(tmp_path, args):
    (tmp_path / "k.ptx").write_text(AXPY_PTX)
    c, p = both(*args, cwd=tmp_path)
    assert c.returncode == p.returncode and c.returncode in (1, 2)
    c_err, p_err = c.stderr.strip().splitlines()[0], p.stderr.strip().splitlines()[0]
    assert c_err.replace("launch: ", "") == p_err, (c_err, p_err)


@pytest.mark.parametrize("args", [
    ["run", "reduction", "--mod", "functional"],
    ["run", "reduction", "--sta", "s.json"],
    ["exec", "k.ptx", "--kern", "axpy", "--block", "4"],
    ["list", "statistics", "--mark"],
])
def test_abbreviated_options_are_usage_errors_in_both(tmp_path, args):
    """Only whole option names: argparse would take --mod for --mode, CLI11 does not."""
    (tmp_path / "k.ptx").write_text(AXPY_PTX)
    c, p = both(*args, cwd=tmp_path)
    assert c.returncode == p.returncode == 2, (c.stderr, p.stderr)
    assert not (tmp_path / "s.json").exists()


def test_json_is_another_name_for_stats_in_both(tmp_path):
    env = dict(os.environ)
    for cli, name in (([CLI], "cpp"), ([sys.executable, "-m", "warptlm"], "py")):
        for option in ("--json", "--stats"):
            r = subprocess.run([*cli, "run", "collatz", option, f"{name}{option}.json"], capture_output=True,
                               text=True, cwd=tmp_path, env=env)
            assert r.returncode == 0, r.stderr
    records = []
    for f in ("cpp--json", "cpp--stats", "py--json", "py--stats"):
        record = comparable(tmp_path / f"{f}.json")
        record.pop("command")
        records.append(record)
    assert records[0] == records[1] == records[2] == records[3]


def test_exec_takes_the_only_kernel_without_kernel_in_both(tmp_path):
    (tmp_path / "k.ptx").write_text(AXPY_PTX)
    np.save(tmp_path / "x.npy", np.arange(8, dtype=np.float32))
    np.save(tmp_path / "y.npy", np.zeros(8, dtype=np.float32))
    c, p = both("exec", "k.ptx", "--block", "8", "--arg", "x.npy", "--arg", "y.npy", "--arg", "f32:2", "--arg",
                "u32:8", cwd=tmp_path)
    assert c.returncode == p.returncode == 0, c.stderr + p.stderr
    assert c.stdout.splitlines()[0] == p.stdout.splitlines()[0]
    assert c.stdout.startswith("warptlm exec: kernel axpy of k.ptx")
    # y = 2x + y, twice (each CLI ran once on the same files).
    assert np.array_equal(np.load(tmp_path / "y.npy"), 4 * np.arange(8, dtype=np.float32))
    two = AXPY_PTX + AXPY_PTX[AXPY_PTX.index(".visible"):].replace("axpy", "axpy2")
    (tmp_path / "two.ptx").write_text(two)
    c, p = both("exec", "two.ptx", "--block", "8", cwd=tmp_path)
    assert c.returncode == p.returncode == 2
    assert c.stderr == p.stderr == "warptlm: exec: two.ptx has 2 kernels (axpy, axpy2): name one with --kernel\n"


def test_unknown_fields_get_a_suggestion_in_both(tmp_path):
    c, p = both("run", "reduction", "--set", "memory.l1.sise=1024")
    for r in (c, p):
        assert r.returncode == 2 and "(did you mean 'memory.l1.size'" in r.stderr


def test_outdir_holds_the_whole_run_and_diff_compares_runs(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    r = subprocess.run([CLI, "run", "reduction", "--mode", "timing", "--outdir", str(a)], capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr
    assert sorted(os.listdir(a)) == ["config.json", "stats.json", "stats.txt", "timeline.json", "top.vcd"]
    r = subprocess.run([sys.executable, "-m", "warptlm", "run", "reduction", "--mode", "timing", "--set",
                        "scheduler=gto", "--outdir", str(b)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert sorted(os.listdir(b)) == sorted(os.listdir(a))
    text = (a / "stats.txt").read_text().splitlines()
    assert text[0].startswith(f"# warptlm {warptlm.__version__} run, timing mode, kernel")
    assert any(line.startswith("cycles ") and "# core cycles of the (last) launch (cycles)" in line for line in text)
    d = subprocess.run([sys.executable, "-m", "warptlm", "diff", str(a), str(b)], capture_output=True, text=True)
    assert d.returncode == 1
    assert '  scheduler: "lrr" -> "gto"' in d.stdout and "config: 1 differ" in d.stdout
    assert "cycles:" in d.stdout
    same = subprocess.run([sys.executable, "-m", "warptlm", "diff", str(a), str(a / "stats.json")],
                          capture_output=True, text=True)
    assert same.returncode == 0 and "same configuration and statistics" in same.stdout
    bad = subprocess.run([sys.executable, "-m", "warptlm", "diff", str(a), str(a / "config.json")],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "not a warptlm run record" in bad.stderr


def test_python_api_outdir_and_saved_record(tmp_path, small):
    r = warptlm.scenarios.run(small, "reduction", outdir=tmp_path / "run")
    assert sorted(os.listdir(tmp_path / "run")) == ["config.json", "stats.json", "stats.txt"]
    r.save(tmp_path / "r.json")
    saved = json.loads((tmp_path / "r.json").read_text())
    assert saved == json.loads((tmp_path / "run" / "stats.json").read_text())
    assert saved["config"] == small.config and saved["stats"]["warps"] == r.stats["warps"]
    assert saved["warptlm_version"] == warptlm.__version__ and saved["passed"] is True


def test_config_files_give_the_same_runs_and_the_same_errors(tmp_path):
    good = tmp_path / "gpu.yaml"
    good.write_text("preset: small\nnum_sms: 3\nmemory: {l1: {size: 16384}}\nmp_ipdom.st_entries: 0\n")
    records = []
    for cli_index in (0, 1):
        out = tmp_path / f"stats{cli_index}.json"
        result = both("run", "reduction", "--config", str(good), "--set", "warp_size=16", "--stats", str(out))
        assert result[cli_index].returncode == 0, result[cli_index].stderr
        records.append(comparable(out))
    assert records[0] == records[1]
    config = records[0]["config"]
    assert (config["num_sms"], config["warp_size"], config["memory.l1.size"]) == (3, 16, 16384)
    # Without 'preset' the file starts from --preset.
    bare = tmp_path / "bare.json"
    bare.write_text('{"num_sms": 1}')
    c, p = both("run", "reduction", "--preset", "fermi", "--config", str(bare), "--stats", str(tmp_path / "b.json"))
    assert c.returncode == p.returncode == 0
    assert json.loads((tmp_path / "b.json").read_text())["config"]["sm.warps"] == warptlm.Platform("fermi")["sm.warps"]
    for name, text, message in [
            ("field.yaml", "memory:\n  l1:\n    assoc: 0\n", "memory.l1.assoc: must be an integer in [1, 256], got 0"),
            ("syntax.yaml", "memory:\n  l1: {size: 1\n", ":3:1: "),
            ("list.yaml", "- 1\n", "a configuration must be an object of fields, got array"),
            ("preset.json", '{"preset": 3}', "preset: must be a preset name, got 3")]:
        path = tmp_path / name
        path.write_text(text)
        c, p = both("run", "reduction", "--config", str(path))
        assert c.returncode == p.returncode == 2, (c.stderr, p.stderr)
        assert c.stderr == p.stderr
        assert f"{path}" in c.stderr and message in c.stderr, c.stderr


def test_platform_from_file_reads_yaml_as_the_cpp_api_does(tmp_path):
    path = tmp_path / "gpu.yaml"
    path.write_text("preset: small\nwarp_size: 16\nsm:\n  warps: 8\n")
    p = warptlm.Platform.from_file(path)
    assert (p.preset, p["warp_size"], p["sm.warps"]) == ("small", 16, 8)
    assert warptlm.Platform.from_file(tmp_path / "gpu.yaml").overrides == {"warp_size": 16, "sm.warps": 8}
    (tmp_path / "bad.yaml").write_text("num_sm: 2\n")
    with pytest.raises(ValueError, match=r"bad\.yaml: unknown configuration field 'num_sm'"):
        warptlm.Platform.from_file(tmp_path / "bad.yaml")


@pytest.mark.parametrize("mode", ["functional", "timing"])
def test_exec_repeat_runs_one_session_the_same_in_both(tmp_path, mode):
    (tmp_path / "k.ptx").write_text(AXPY_PTX)
    for who in ("c", "p"):
        np.save(tmp_path / f"x_{who}.npy", np.arange(100, dtype=np.float32))
        np.save(tmp_path / f"y_{who}.npy", np.full(100, 7, dtype=np.float32))
    common = ["exec", "k.ptx", "--kernel", "axpy", "--grid", "2", "--block", "64", "--mode", mode,
              "--preset", "small", "--repeat", "3"]
    runs = {}
    for who, command in (("c", [CLI]), ("p", [sys.executable, "-m", "warptlm"])):
        runs[who] = subprocess.run([*command, *common, "--arg", f"x_{who}.npy", "--arg", f"y_{who}.npy", "--arg",
                                    "f32:2", "--arg", "u32:100", "--stats", f"{who}.json"],
                                   capture_output=True, text=True, cwd=tmp_path)
        assert runs[who].returncode == 0, runs[who].stderr
        # y = y + 2x, three times over, in device memory between the launches
        expected = np.float32(7) + 3 * np.float32(2) * np.arange(100, dtype=np.float32)
        assert np.array_equal(np.load(tmp_path / f"y_{who}.npy"), expected)
    c, p = runs["c"], runs["p"]
    assert without_wall_time(c.stdout).replace("_c.npy", "") == without_wall_time(p.stdout).replace("_p.npy", "")
    assert "  3 launches in one session" in c.stdout.splitlines()
    record = comparable(tmp_path / "c.json")
    assert record == comparable(tmp_path / "p.json")
    assert record["repeat"] == 3
    single = subprocess.run([CLI, *common[:-2], "--arg", "x_c.npy", "--arg", "y_c.npy", "--arg", "f32:2", "--arg",
                             "u32:100", "--stats", "one.json"], capture_output=True, text=True, cwd=tmp_path)
    assert single.returncode == 0, single.stderr
    one = comparable(tmp_path / "one.json")["stats"]
    assert record["stats"]["warp_instructions"] == 3 * one["warp_instructions"]
    if mode == "timing":
        assert record["stats"]["launches"] == 3
    c, p = both(*common, "--arg", "x_c.npy", "--arg", "y_c.npy", "--arg", "f32:2", "--arg", "u32:100",
                "--trace", "t.csv", cwd=tmp_path)
    assert c.returncode == p.returncode == 2
    assert c.stderr == p.stderr and "--repeat runs a session of launches" in c.stderr
    c, p = both(*common[:-1], "0", "--arg", "x_c.npy", "--arg", "y_c.npy", "--arg", "f32:2", "--arg", "u32:100",
                cwd=tmp_path)
    assert c.returncode == p.returncode == 2
    assert c.stderr == p.stderr == ("warptlm exec: --repeat: Value 0 not in range 1 to 4294967296\n"
                                    "Run 'warptlm exec --help' for the options.\n")


def test_threads_change_nothing_but_the_host_threads_in_both(tmp_path):
    """--threads N is --set host_threads=N in both CLIs; the run's statistics and
    summary are those of one thread (docs/parallel-sms.md)."""
    args = ["run", "reduction", "--mode", "timing", "--preset", "fermi"]
    one = subprocess.run([CLI, *args, "--stats", str(tmp_path / "one.json")], capture_output=True, text=True)
    c = subprocess.run([CLI, *args, "--threads", "2", "--stats", str(tmp_path / "c.json")],
                       capture_output=True, text=True)
    p = subprocess.run([sys.executable, "-m", "warptlm", *args, "--threads", "2", "--stats",
                        str(tmp_path / "p.json")], capture_output=True, text=True)
    assert one.returncode == c.returncode == p.returncode == 0, c.stderr + p.stderr
    assert without_wall_time(c.stdout) == without_wall_time(p.stdout) == without_wall_time(one.stdout)
    record = comparable(tmp_path / "c.json")
    assert record == comparable(tmp_path / "p.json")
    assert record["config"]["host_threads"] == 2
    assert record["stats"] == comparable(tmp_path / "one.json")["stats"]
    c, p = both("run", "reduction", "--mode", "timing", "--threads", "0")
    assert c.returncode == p.returncode != 0
    assert c.stderr.strip() == p.stderr.strip() and "host_threads" in c.stderr
