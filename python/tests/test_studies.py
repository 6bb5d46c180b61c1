"""scripts/run_studies.py, the one command behind results/: every study runs at
test sizes and writes its files and README section, and a killed run resumes
without recomputing the simulations it finished."""
import io
import os
import re
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest

from conftest import SOURCE_DIR

SCRIPT = os.path.join(SOURCE_DIR, "scripts", "run_studies.py")
sys.path.insert(0, os.path.join(SOURCE_DIR, "scripts"))
from studies import STUDIES  # noqa: E402


def command(out, *extra):
    return [sys.executable, SCRIPT, "--out", str(out), "--size", "test", "--no-progress", "--workers", "2",
            *extra]


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("studies")
    done = subprocess.run(command(out, "--scenarios", "reduction,bitonic,hashprobe"), capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return out, done.stderr


@pytest.mark.parametrize("study", STUDIES, ids=[s.NAME for s in STUDIES])
def test_each_study_writes_its_files_and_section(quick_run, study):
    out, log = quick_run
    folder = out / study.NAME
    csvs = sorted(p.name for p in folder.glob("*.csv"))
    pngs = sorted(p.name for p in folder.glob("*.png"))
    assert csvs and pngs, (study.NAME, csvs, pngs)
    for name in csvs:
        assert len(pd.read_csv(folder / name)) > 0, f"{study.NAME}/{name} is empty"
    readme = (out / "README.md").read_text()
    assert f"## {study.TITLE}" in readme
    assert f"{study.NAME} done in" in log


def test_readme_tables_name_csvs_that_exist(quick_run):
    out, _ = quick_run
    readme = (out / "README.md").read_text()
    marked = re.findall(r"<!-- table: (\S+) -->", readme)
    assert len(marked) >= 10
    for path in marked:
        assert (out / path).exists(), path


def test_a_second_run_reads_every_simulation_back(quick_run):
    out, _ = quick_run
    again = subprocess.run(command(out, "--scenarios", "reduction,bitonic,hashprobe", "--only",
                                   "multipath,paired_path"), capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr[-3000:]
    for study in ("multipath", "paired_path"):
        assert re.search(rf"^{study}: (\d+) runs, \1 from the store, 0 run now$", again.stderr, re.M), again.stderr


def test_a_killed_run_resumes_without_recomputing(tmp_path):
    """Kill the command while its sweep is part-way, then run it again: the
    simulations stored before the kill are read back (their rows unchanged,
    none twice) and only the rest run."""
    args = command(tmp_path, "--only", "taxonomy", "--scenarios", "reduction,bitonic,nested3,collatz")
    cache = tmp_path / ".cache"
    child = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                             start_new_session=True)
    deadline = time.monotonic() + 120
    store = None
    while time.monotonic() < deadline:
        found = list(cache.glob("*/timing-test.csv"))  # .cache/<model fingerprint>/
        store = found[0] if found else None
        if store is not None and len(store.read_text().splitlines()) > 6:  # header + some rows
            break
        if child.poll() is not None:
            pytest.fail("the run finished before it could be killed: " + child.stderr.read()[-2000:])
        time.sleep(0.05)
    os.killpg(child.pid, signal.SIGKILL)
    child.wait()
    text = store.read_text()
    if not text.endswith("\n"):  # killed mid-row: the store drops that row on resume
        text = text[:text.rfind("\n") + 1]
    before = pd.read_csv(io.StringIO(text), keep_default_na=False)
    assert 0 < len(before) < 40, len(before)  # 10 schemes x 4 scenarios: part-way

    done = subprocess.run(args, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert f"taxonomy: 40 runs, {len(before)} from the store, {40 - len(before)} run now" in done.stderr
    after = pd.read_csv(store, keep_default_na=False)
    assert not after["key"].duplicated().any()
    pd.testing.assert_frame_equal(after.iloc[:len(before)].reset_index(drop=True), before)


@pytest.mark.parametrize("args, message", [
    (["--only", "taxonomy"], "--only writes a README.md with those studies alone"),
    (["--only", "taxonmy", "--out", "OUT"], "--only: unknown taxonmy"),
    (["--preset", "fremi", "--out", "OUT"], "--preset: unknown 'fremi'"),
    (["--scenarios", "redction", "--out", "OUT"], "--scenarios: unknown redction"),
    (["--size", "huge"], "invalid choice: 'huge'"),
])
def test_bad_options_are_refused_before_anything_runs(tmp_path, args, message):
    out = tmp_path / "out"
    args = [str(out) if a == "OUT" else a for a in args]
    done = subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert message in done.stderr, done.stderr
    assert not out.exists()  # nothing written
