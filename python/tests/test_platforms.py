"""Platforms from Python and from both CLIs: warptlm.platforms.run(),
`warptlm platform` and `python3 -m warptlm platform` give the same record,
the same text and the same errors."""

import json
import os
import subprocess
import sys

import pytest

import warptlm

CLI = os.environ.get("WARPTLM_CLI") or os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(warptlm.__file__)))), "warptlm")
needs_cli = pytest.mark.skipif(not os.access(CLI, os.X_OK), reason="the C++ CLI is not built next to the package")

TWO_GPUS = """description: two small GPUs, a router and a RAM, from a user's file
modules:
  cpu: {kind: host, memory: dram}
  noc:
    kind: router
    map:
      - {target: dram, base: 0x100000000, size: 0x4000000}
      - {target: a.control, base: 0x10000, size: 0x1000}
      - {target: b.control, base: 0x20000, size: 0x1000}
  dram: {kind: memory, size: 0x4000000, latency_ns: 80, dmi: false}
  a: {kind: gpu, preset: small, coding_style: lt}
  b: {kind: gpu, preset: small, warp_size: 16}
bindings:
  - {from: cpu.bus, to: noc}
  - {from: a.memory, to: noc}
  - {from: b.memory, to: noc}
interrupts:
  - {from: a.irq, to: cpu.irq}
  - {from: b.irq, to: cpu.irq}
"""


def both(*args):
    c = subprocess.run([CLI, *args], capture_output=True, text=True)
    p = subprocess.run([sys.executable, "-m", "warptlm", *args], capture_output=True, text=True)
    return c, p


def test_the_built_in_platforms_are_listed():
    assert warptlm.platforms.list() == ["multi_gpu", "soc", "standalone"]


def test_run_soc_in_both_coding_styles():
    for mode in ("lt", "at"):
        r = warptlm.platforms.run("soc", "reduction", mode=mode)
        assert r.passed, r.summary()
        assert r.configs["gpu0"]["coding_style"] == mode
        assert r.jobs[0]["scenario"] == "reduction" and r.jobs[0]["launch_cycles"] > 0
        assert r.stats["bus"]["windows"]["gpu0.control"]["writes"] > 10
        assert r.stats["host"]["bytes_copied_in"] > 0
        assert "host reference: PASS" in r.summary()


def test_settings_by_hierarchical_name_reach_the_module():
    r = warptlm.platforms.run("multi_gpu", set={"gpu1.num_sms": 3, "multi_gpu.ram.latency_ns": 5,
                                                "gpu0.memory.dmi": False})
    assert r.passed
    assert r.configs["gpu1"]["num_sms"] == 3 and r.configs["gpu0"]["num_sms"] == 2
    assert r.configs["gpu0"]["memory.dmi"] is False
    assert r.stats["gpu0"]["memory_port.dmi_grants"] == 0 and r.stats["gpu1"]["memory_port.dmi_grants"] == 1
    with pytest.raises(ValueError, match=r"--set gpu2.num_sms=2: 'gpu2' is no module"):
        warptlm.platforms.run("multi_gpu", set={"gpu2.num_sms": 2})


def test_a_users_platform_file_with_two_different_gpus(tmp_path):
    path = tmp_path / "two.yaml"
    path.write_text(TWO_GPUS)
    r = warptlm.platforms.run(str(path), {"a": "collatz", "b": "sortnet"}, mode=None)
    assert r.passed, r.summary()
    assert [j["gpu"] for j in r.jobs] == ["a", "b"]
    assert r.configs["a"]["coding_style"] == "lt" and r.configs["b"]["coding_style"] == "at"
    assert r.configs["b"]["warp_size"] == 16
    assert r.stats["dram"]["dmi_grants"] == 0 and r.stats["dram"]["reads"] > 0  # no DMI: b_transport
    assert r.record["platform"] == "two"


def test_bad_platform_files_are_refused_with_their_location(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(TWO_GPUS.replace("size: 0x4000000, latency_ns", "latency_ns"))
    with pytest.raises(ValueError, match=rf"^{path}:10:3: dram \(memory\): missing field 'size'$"):
        warptlm.platforms.run(str(path), "bfs")
    path.write_text(TWO_GPUS.replace("base: 0x20000", "base: 0x10800"))
    with pytest.raises(ValueError, match=rf"^{path}:9:9: noc.map\[2\]: b.control \[0x10800, 0x11800\) overlaps "
                                         rf"a.control \[0x10000, 0x11000\) \({path}:8:9\)$"):
        warptlm.platforms.run(str(path), "bfs")


@needs_cli
def test_both_clis_print_and_record_the_same(tmp_path):
    a, b = tmp_path / "c.json", tmp_path / "p.json"
    c = subprocess.run([CLI, "platform", "soc", "--scenario", "bfs", "--mode", "at", "--set", "gpu0.num_sms=1",
                        "--stats", str(a)], capture_output=True, text=True)
    p = subprocess.run([sys.executable, "-m", "warptlm", "platform", "soc", "--scenario", "bfs", "--mode", "at",
                        "--set", "gpu0.num_sms=1", "--stats", str(b)], capture_output=True, text=True)
    assert c.returncode == p.returncode == 0, c.stderr + p.stderr
    assert c.stdout == p.stdout
    assert json.loads(a.read_text()) == json.loads(b.read_text())
    record = json.loads(a.read_text())
    assert record["passed"] and record["configs"]["gpu0"]["num_sms"] == 1
    assert set(record["modules"]) == {"host", "bus", "ram", "gpu0"}


@needs_cli
def test_both_clis_refuse_the_same_way():
    for args in (["platform", "socc"], ["platform", "soc", "--scenario", "gpu3=bfs"],
                 ["platform", "soc", "--scenario", "bfs", "--set", "ram.sise=3"], ["platform", "soc"],
                 ["platform", "soc", "--scenario", "bfs", "--size", "7"]):
        c, p = both(*args)
        assert c.returncode == p.returncode == 2, args
        assert c.stderr == p.stderr, args
        assert c.stderr.startswith("warptlm: "), c.stderr


def test_elaborate_gives_the_view_and_its_text():
    view = warptlm.platforms.elaborate("soc", set={"gpu0.num_sms": 3})
    assert [m["name"] for m in view["modules"]] == ["soc.host", "soc.bus", "soc.ram", "soc.gpu0"]
    assert view["configuration"]["soc.gpu0"]["num_sms"] == {"value": 3, "from": "--set gpu0.num_sms=3"}
    assert {"target": "soc.gpu0.control", "base": 0x40000000, "size": 0x1000,
            "range": "0x40000000..0x40000fff"} in view["address_maps"]["soc.bus"]
    text = warptlm.platforms.elaborate("soc", "text")
    assert "  soc.host.bus -> soc.bus.in\n" in text
    assert warptlm.platforms.elaborate("soc", "dot").startswith('digraph "soc" {')
    with pytest.raises(ValueError, match="format 'yaml'"):
        warptlm.platforms.elaborate("soc", "yaml")


@needs_cli
def test_both_clis_elaborate_alike(tmp_path):
    for fmt in ("text", "json", "dot"):
        c, p = both("elaborate", "multi_gpu", "--format", fmt, "--mode", "at", "--set", "gpu1.num_sms=2")
        assert c.returncode == p.returncode == 0, c.stderr + p.stderr
        assert c.stdout == p.stdout, fmt
    c, p = both("elaborate", "multi_gpu", "--set", "gpu1.nope=2")
    assert c.returncode == p.returncode == 2 and c.stderr == p.stderr


@needs_cli
@pytest.mark.skipif(subprocess.run(["which", "dot"], capture_output=True).returncode != 0,
                    reason="Graphviz is not installed")
def test_elaborate_draws_with_graphviz(tmp_path):
    for tool in ([CLI], [sys.executable, "-m", "warptlm"]):
        out = tmp_path / "soc.png"
        r = subprocess.run([*tool, "elaborate", "soc", "-o", str(out)], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        out.unlink()


def test_a_platform_sweeps_like_any_configuration(tmp_path):
    base = warptlm.platforms.Base("soc", mode="at")
    out = tmp_path / "soc.csv"
    frame = warptlm.sweep(base, {"gpu0.num_sms": [1, 2], "ram.latency_ns": [20, 200]}, ["mandelbrot", "bfs"],
                          workers=2, out=str(out), record=["cycles", "ipc"], progress=False)
    assert len(frame) == 8 and frame["passed"].all(), frame["error"].tolist()
    assert list(frame.columns[:6]) == ["platform", "gpu0.num_sms", "ram.latency_ns", "scenario", "size", "mode"]
    by = frame.set_index(["scenario", "gpu0.num_sms", "ram.latency_ns"])["gpu0.cycles"]
    assert by[("mandelbrot", 2, 20)] < by[("mandelbrot", 1, 20)]  # more SMs, fewer cycles
    assert by[("bfs", 1, 200)] > by[("bfs", 1, 20)]  # a slower memory, more cycles (bfs misses the L2)
    assert (frame["host.mmio_writes"] > 0).all() and "bus.ram.socket.reads" in frame.columns
    # Resumed: every row is read back from the file.
    again = warptlm.sweep(base, {"gpu0.num_sms": [1, 2], "ram.latency_ns": [20, 200]}, ["mandelbrot", "bfs"],
                          workers=2, out=str(out), record=["cycles", "ipc"], progress=False)
    assert again["key"].tolist() == frame["key"].tolist()
    with pytest.raises(ValueError, match=r"--set gpu0.num_smz=1: gpu0: unknown configuration field 'num_smz'"):
        warptlm.sweep(base, {"gpu0.num_smz": [1]}, ["bfs"])


def test_a_sweep_file_can_sweep_a_platform(tmp_path):
    (tmp_path / "sweep.yaml").write_text(
        "platform: {name: multi_gpu, mode: lt, set: {gpu1.num_sms: 2}}\n"
        "grid: {gpu0.reconvergence: [ipdom, sorted_list]}\n"
        "scenarios: [collatz]\nrecord: [warp_instructions]\nout: rows.csv\n")
    r = subprocess.run([sys.executable, "-m", "warptlm", "sweep", str(tmp_path / "sweep.yaml")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "2 runs, 2 passed" in r.stdout
    import pandas as pd
    rows = pd.read_csv(tmp_path / "rows.csv")
    assert set(rows["gpu0.reconvergence"]) == {"ipdom", "sorted_list"}
    assert (rows["gpu1.warp_instructions"] > 0).all()


def test_timelines_one_per_gpu(tmp_path):
    r = warptlm.platforms.run("multi_gpu", mode="at", timeline=str(tmp_path / "t.json"))
    assert r.passed
    assert r.record["timelines"] == [str(tmp_path / "t.gpu0.json"), str(tmp_path / "t.gpu1.json")]
    for path, gpu in zip(r.record["timelines"], ("gpu0", "gpu1")):
        trace = json.loads(open(path).read())
        slices = [e for e in trace["traceEvents"] if e["ph"] == "X"]
        assert len(slices) == r.stats[gpu]["warp_instructions"]  # one slice per issued instruction
        assert any(e["name"].startswith("ld.global") for e in slices)
    one = warptlm.platforms.run("soc", "collatz", timeline=str(tmp_path / "soc.json"))
    assert one.record["timelines"] == [str(tmp_path / "soc.json")]
