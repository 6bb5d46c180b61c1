"""What every study shares: the run context, sweeps through one resumable
store per mode, and the tables and averages the write-ups quote."""
import math
import numbers
import os
from dataclasses import dataclass, field

import pandas as pd

import warptlm

# The PNGs are written without a display.
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

__all__ = ["Context", "Section", "plt", "save_png", "geomean", "hmean", "markdown_table", "table", "fmt"]


@dataclass
class Context:
    """One run of the studies: where results go, where finished runs are kept
    (``cache``: one sweep store per mode, so a point two studies share runs
    once and a killed run resumes), the size of the scenarios, the preset,
    the parallel runs, the scenarios (None: every built-in one) and whether
    to show progress bars."""

    out: str
    cache: str
    size: str = "study"
    preset: str = "fermi"
    workers: int = None
    scenarios: list = None
    progress: bool = True
    log: list = field(default_factory=list)
    runs: int = 0  # simulations the studies asked for
    stored: int = 0  # of them, read back from the store

    def counted(self, label, total, stored):
        self.runs += total
        self.stored += stored
        self.log.append(f"{label}: {total} runs, {stored} from the store, {total - stored} run now")

    def study_dir(self, name):
        path = os.path.join(self.out, name)
        os.makedirs(path, exist_ok=True)
        return path

    def names(self, wanted=None):
        """The scenarios a study runs: ``wanted`` (its own choice, such as the
        unstructured ones) restricted to the context's, in the registry's order."""
        every = warptlm.scenarios.list()
        chosen = every if self.scenarios is None else [n for n in every if n in self.scenarios]
        return [n for n in chosen if wanted is None or n in wanted]

    def sweep(self, label, points, names, mode="timing", base=None, must_pass=True, **fields):
        """Run ``points`` (a list of {field: value}) on ``names`` at the
        context's size through warptlm.sweep, resuming from the cache; the
        rows (every statistic) with a ``config`` column holding each point's
        label (``points`` as [(label, {field: value})]). With ``must_pass``
        a run that failed or faulted is a RuntimeError listing every one."""
        os.makedirs(self.cache, exist_ok=True)
        store = os.path.join(self.cache, f"{mode}-{self.size}.csv")
        platform = warptlm.Platform(base or self.preset, **fields)
        labels = [lab for lab, _ in points]
        grid = [dict(p) for _, p in points]
        before = _stored_keys(store)
        rows = warptlm.sweep(platform, grid, [f"{n}:{self.size}" for n in names], workers=self.workers,
                             out=store, resume=True, mode=mode,
                             progress=f"{label}" if self.progress else False)
        self.counted(label, len(rows), int(rows["key"].isin(before).sum()))
        rows = _counts_as_integers(rows, mode)
        per_point = len(names)
        rows = rows.assign(config=[labels[i // per_point] for i in range(len(rows))])
        failed = rows[~rows["passed"].astype(bool)]
        if must_pass and len(failed):
            raise RuntimeError(f"{label}: runs failed:\n{failed[['config', 'scenario', 'error']].to_string()}")
        return rows


def _counts_as_integers(rows, mode):
    """Count statistics back to integers: a store holding an error row (no statistics) reads every
    column of numbers as floats."""
    units = {name: stat.unit for name, stat in warptlm.statistics(mode, breakdown=False).items()}
    for column, unit in units.items():
        if column not in rows or unit == "fraction" or " per " in unit or rows[column].dtype.kind != "f":
            continue
        values = rows[column].dropna()
        if len(values) and (values == values.round()).all():
            rows[column] = rows[column].astype("Int64")
    return rows


def _stored_keys(path):
    if not os.path.exists(path):
        return set()
    try:
        return set(pd.read_csv(path, usecols=["key"])["key"])
    except (ValueError, pd.errors.EmptyDataError):
        return set()


@dataclass
class Section:
    """A study's part of results/README.md: its title and markdown."""

    name: str
    title: str
    body: str


def save_png(fig, path):
    """Lay out ``fig``, write it to ``path`` and free it."""
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def geomean(values):
    values = list(values)
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def hmean(values):
    values = list(values)
    return len(values) / sum(1 / v for v in values) if values else float("nan")


def fmt(value, digits=3):
    """A number as the READMEs print it (and the consistency test reads it)."""
    if isinstance(value, str):
        return value
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return "–"
    if isinstance(value, (bool,)):
        return "yes" if value else "no"
    if isinstance(value, numbers.Integral):
        return f"{int(value)}"
    return f"{value:.{digits}f}"


def table(ctx, study, filename, frame, digits=3):
    """Write ``frame`` (its index the first column) as ``study/filename`` and
    return it as a markdown table, marked with the CSV it shows so that
    python/tests/test_results.py can check the two agree."""
    frame.to_csv(os.path.join(ctx.study_dir(study), filename))
    return f"<!-- table: {study}/{filename} -->\n" + markdown_table(frame, digits=digits)


def markdown_table(frame, index_name=None, digits=3):
    """``frame`` as a markdown table, its index as the first column."""
    header = [index_name or frame.index.name or ""] + [str(c) for c in frame.columns]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    for i in range(len(frame)):  # cell by cell: a row Series would turn integer columns into floats
        cells = [fmt(frame.iat[i, j], digits) for j in range(frame.shape[1])]
        lines.append("| " + " | ".join([str(frame.index[i])] + cells) + " |")
    return "\n".join(lines)
