"""The tables in results/*/README.md are the committed CSVs' numbers: a
regenerated CSV with a stale README (or a hand-edited figure) fails here."""
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


def test_compactability_table_matches_compaction_rates_csv():
    folder = os.path.join(RESULTS, "slp_compactability")
    rates = pd.read_csv(os.path.join(folder, "compaction_rates.csv"))
    rows = table(os.path.join(folder, "README.md"), "branch class")
    header = ["none", "odd_even", "rev_wid", "flip_odd", "balanced", "ideal"]
    for label, *cells in rows:
        m = re.fullmatch(r"([PD]) \((\d+) scenarios\)", label)
        assert m, label
        part = rates[rates["branch_class"] == m.group(1)]
        assert part["scenario"].nunique() == int(m.group(2))
        for permutation, cell in zip(header, cells):
            if permutation == "ideal":
                value = part[part["permutation"] == "none"]["ideal_compaction_rate"].mean()
            else:
                value = part[part["permutation"] == permutation]["compaction_rate"].mean()
            close(cell, value, 3)
