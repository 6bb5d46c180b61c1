"""The tables in results/README.md and results/compaction_timing/README.md are
the committed CSVs' numbers: a regenerated CSV with a stale README (or a
hand-edited figure) fails here."""
import os
import re

import pandas as pd
import pytest

from conftest import SOURCE_DIR

RESULTS = os.path.join(SOURCE_DIR, "results")


def table(readme, first_header):
    """The rows (lists of cell strings) of the markdown table whose header starts with `first_header`."""
    lines = open(readme, encoding="utf-8").read().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| " + first_header + " |"))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    assert rows, f"{readme}: the table under '{first_header}' is empty"
    return rows


def close(text, value, digits):
    """`text` is `value` as the README rounds it (to `digits` decimals; '1' and '0' stand for exact)."""
    assert float(text) == pytest.approx(round(value, digits), abs=0.6 * 10 ** -digits), (text, value)


def test_compaction_timing_table_matches_summary_csv():
    folder = os.path.join(RESULTS, "compaction_timing")
    summary = pd.read_csv(os.path.join(folder, "summary.csv")).set_index("config")
    rows = table(os.path.join(folder, "README.md"), "configuration")
    assert [r[0] for r in rows] == list(summary.index)
    for config, speedup, fig15, fig15_capri, simd, instructions, misses, wait, uniform in rows:
        s = summary.loc[config]
        m = re.fullmatch(r"([0-9.]+)(?: \(([0-9.]+)-([0-9.]+)\))?", speedup)
        assert m, speedup
        close(m.group(1), s["speedup_geomean"], 3)
        if m.group(2):
            close(m.group(2), s["speedup_min"], 3)
            close(m.group(3), s["speedup_max"], 3)
        close(fig15, s["figure15_speedup_hmean"], 3)
        close(fig15_capri, s["figure15_vs_capri_hmean"], 3)
        close(simd, s["simd_utilisation_mean"], 3)
        close(instructions, s["warp_instructions_vs_none"], 3)
        close(misses, s["l1_misses_vs_none"], 3)
        close(wait, s["sync_wait_cycles_per_issue"], 2)
        if uniform == "-":
            assert s["uniform_branch_share_of_sync_wait"] == 0
        else:
            close(uniform.rstrip("%"), 100 * s["uniform_branch_share_of_sync_wait"], 1)


def marked_tables(readme):
    """(csv path relative to results/, header, rows) of every table marked `<!-- table: X -->`."""
    lines = open(readme, encoding="utf-8").read().splitlines()
    found = []
    for i, line in enumerate(lines):
        m = re.fullmatch(r"<!-- table: (\S+) -->", line.strip())
        if not m:
            continue
        header = [c.strip() for c in lines[i + 1].strip().strip("|").split("|")]
        rows = []
        for row in lines[i + 3:]:
            if not row.startswith("|"):
                break
            rows.append([c.strip() for c in row.strip().strip("|").split("|")])
        found.append((m.group(1), header, rows))
    return found


def matches(cell, value):
    """Whether a README cell shows the CSV's value as the studies print it."""
    if cell == "–":
        return value == "" or pd.isna(value)
    if cell in ("yes", "no"):
        return str(value) in (("True", "true", "1") if cell == "yes" else ("False", "false", "0"))
    try:
        number = float(cell)
    except ValueError:
        return cell == str(value)
    digits = len(cell.split(".")[1]) if "." in cell else 0
    return abs(number - float(value)) <= 0.6 * 10 ** -digits


def test_results_readme_tables_are_their_csvs():
    """Every table of results/README.md is the CSV it names, cell by cell (a figure changed in the
    README, or a CSV regenerated without it, fails)."""
    tables = marked_tables(os.path.join(RESULTS, "README.md"))
    assert len(tables) >= 10, "results/README.md lost its tables"
    for path, header, rows in tables:
        frame = pd.read_csv(os.path.join(RESULTS, path), keep_default_na=False, na_values=[""], dtype=str)
        assert header == list(frame.columns), (path, header)
        assert len(rows) == len(frame), (path, len(rows), len(frame))
        for row, (_, expected) in zip(rows, frame.iterrows()):
            assert row[0] == expected.iloc[0], (path, row[0])
            for cell, value, column in zip(row[1:], expected.iloc[1:], header[1:]):
                assert matches(cell, value), f"{path}: {row[0]} / {column}: README {cell}, CSV {value}"


def test_results_readme_has_every_study():
    import sys

    sys.path.insert(0, os.path.join(SOURCE_DIR, "scripts"))
    from studies import STUDIES

    text = open(os.path.join(RESULTS, "README.md"), encoding="utf-8").read()
    for study in STUDIES:
        assert f"## {study.TITLE}" in text, study.NAME
        assert os.path.isdir(os.path.join(RESULTS, study.NAME)), study.NAME
