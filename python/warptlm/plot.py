"""Charts of sweep results: a statistic against a swept field, one line per scenario.

Uses matplotlib's Agg backend, so it works without a display.
"""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)

__all__ = ["plot_results"]


def plot_results(frame, x, y, path, by=("scenario",), title=None):
    """Write a PNG of ``y`` against ``x``, one line per distinct ``by`` values.

    Rows sharing (by, x) are averaged (other swept fields are averaged out,
    and the title says which). Error rows are left out. Returns ``path``.
    """
    for column in [x, y, *by]:
        if column not in frame.columns:
            raise ValueError(f"no column {column!r} in the results; columns: {', '.join(frame.columns)}")
    rows = frame[frame["error"].fillna("") == ""] if "error" in frame.columns else frame
    rows = rows.dropna(subset=[y])
    varying = [c for c in _swept_columns(frame) if c not in (x, *by)]
    fig, ax = plt.subplots(figsize=(7, 4.5), dpi=100)
    grouper = by[0] if len(by) == 1 else list(by)  # a scalar key per line when grouping by one column
    for key, group in rows.groupby(grouper, sort=False):
        means = group.groupby(x, sort=True)[y].mean()
        label = ", ".join(str(k) for k in (key if isinstance(key, tuple) else (key,)))
        ax.plot(means.index, means.values, marker="o", label=label)
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    if rows[x].dtype.kind in "iu" and rows[x].min() > 0 and rows[x].max() / rows[x].min() >= 8:
        ax.set_xscale("log", base=2)
    ax.set_title(title or f"{y} vs {x}" + (f" (mean over {', '.join(varying)})" if varying else ""))
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def _swept_columns(frame):
    """Configuration columns that take more than one value in ``frame``."""
    from .config import field_names

    return [c for c in field_names() if c in frame.columns and frame[c].nunique(dropna=False) > 1]
