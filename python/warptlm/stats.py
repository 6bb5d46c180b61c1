"""The statistics registry: every statistic a run can report, with one name,
unit and meaning each, as the model's components declare them
(models/gpu/statistics.h). docs/statistics.md is generated from it
(``python3 -m warptlm list statistics --markdown``)."""

from dataclasses import dataclass

from . import _core

__all__ = ["Statistic", "statistics"]

MODES = ("functional", "timing")


@dataclass(frozen=True)
class Statistic:
    """One statistic. ``name`` may hold ``<N>`` for an SM, channel or slice
    index (a per-part breakdown entry); ``modes``: the modes whose runs report
    it; ``str()`` is its meaning."""

    name: str
    unit: str
    meaning: str
    modes: tuple
    breakdown: bool

    def __str__(self):
        return self.meaning


def _all():
    return [Statistic(name, unit, meaning, ("timing",) if timing_only else MODES, breakdown)
            for name, unit, meaning, timing_only, breakdown in _core.statistics()]


def statistics(mode=None, breakdown=True):
    """{name: Statistic} in report order. ``mode`` ("functional" or "timing"):
    only what runs of that mode report; ``breakdown=False`` leaves out the
    per-SM, per-channel and per-port entries (what sweep rows hold)."""
    if mode is not None and mode not in MODES:
        raise ValueError(f"mode must be 'functional' or 'timing', got {mode!r}")
    return {s.name: s for s in _all() if (mode is None or mode in s.modes) and (breakdown or not s.breakdown)}
