"""python3 -m warptlm: list, run, sweep from a YAML file, plot."""

import json
import os
import subprocess
import sys

import pytest


def cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "warptlm", *args], capture_output=True, text=True, cwd=cwd,
                          env=dict(os.environ))


def test_list_shows_presets_scenarios_schemes_and_statistics():
    r = cli("list")
    assert r.returncode == 0, r.stderr
    for text in ["presets:", "fermi", "scenarios:", "reduction", "schemes:", "ipdom", "statistics:",
                 "simd_utilisation", "activity_factor", "thread_instructions / (warp_instructions x warp_size)"]:
        assert text in r.stdout
    fields = cli("list", "fields").stdout
    assert "memory.l1.size" in fields and "(timing)" in fields


def test_run_prints_stats_and_checks(tmp_path):
    out = tmp_path / "s.json"
    r = cli("run", "reduction", "--set", "warp_size=16", "--json", str(out))
    assert r.returncode == 0, r.stderr
    assert "host reference: PASS" in r.stdout
    data = json.loads(out.read_text())
    assert data["config"]["warp_size"] == 16 and data["stats"]["warps"] % data["stats"]["ctas"] == 0 and data["passed"]
    bad = cli("run", "reduction", "--set", "warp_size=12")
    assert bad.returncode == 2 and "warp_size: must be an integer in [4, 64], a power of two" in bad.stderr


def test_sweep_file_then_plot(tmp_path):
    pytest.importorskip("matplotlib")
    (tmp_path / "study.yaml").write_text(
        "base: {preset: small}\n"
        "grid: {warp_size: [8, 16, 32]}\n"
        "scenarios: [reduction, hashprobe]\n"
        "out: results.csv\n"
        "workers: 2\n"
        "plot: {y: [simd_utilisation, warp_instructions]}\n")
    r = cli("sweep", "study.yaml", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "6 runs, 6 passed" in r.stdout
    assert (tmp_path / "results.csv").read_text().count("\n") == 7
    p = cli("plot", "study.yaml", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    for stat in ["simd_utilisation", "warp_instructions"]:
        png = tmp_path / f"results_{stat}.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    q = cli("plot", str(tmp_path / "results.csv"), "--x", "warp_size", "--y", "branches", "-o",
            str(tmp_path / "b.png"))
    assert q.returncode == 0 and (tmp_path / "b.png").exists()
    missing = cli("plot", str(tmp_path / "results.csv"), "--x", "warp_size", "--y", "nope")
    assert missing.returncode == 2 and "no column 'nope'" in missing.stderr
