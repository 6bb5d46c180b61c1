"""What a run returns: the Result, the KernelError a faulting kernel raises,
and the conversion of the native core's answer into them (shared by
launches, scenario runs and sweeps)."""

import json
import os
import time
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .compaction import Compactability
from .records import run_record, write_outdir
from .stats import statistics

__all__ = ["Result", "KernelError"]


_TRACE_COLUMNS = (("step", np.uint64), ("sm", np.uint32), ("warp", np.uint32), ("split", np.uint32),
                  ("pc", np.uint64), ("mask", np.uint64))


class KernelError(RuntimeError):
    """A fault inside a kernel: out-of-bounds or misaligned access, barrier
    deadlock, runaway kernel, unsupported instruction.

    Attributes (None where the fault has no such part): ``kernel``, ``pc``,
    ``thread`` and ``cta`` ((x, y, z)), ``warp``, ``lane``, ``space``
    ("global", "shared"...), ``address``; ``output``: what the kernel's printf
    calls wrote before the fault ("" for none); ``str()`` is the full message.
    A failed device assert is a KernelError whose message holds the assertion,
    its file, line and function.
    """

    def __init__(self, message, kernel=None, pc=None, thread=None, cta=None, warp=None, lane=None,
                 space=None, address=None, output=""):
        super().__init__(message)
        self.kernel, self.pc, self.thread, self.cta = kernel, pc, thread, cta
        self.warp, self.lane, self.space, self.address = warp, lane, space, address
        self.output = output

    def __reduce__(self):
        return (_rebuild_kernel_error, (str(self), self.__dict__))


def _rebuild_kernel_error(message, attrs):
    error = KernelError(message)
    error.__dict__.update(attrs)
    return error


@dataclass
class Result:
    """What one run produced.

    ``stats``: every statistic the model keeps ({name: value}).
    ``trace``: with trace=True, a DataFrame with one row per issued warp
    instruction: step (cycle in timing mode), sm, warp, split, pc, mask, line
    (of the PTX source) and instruction (its text).
    ``wall_seconds``: the simulation's own run time; ``total_seconds``: from the
    call to the result, isolation included. Scenario runs also set ``passed``
    and ``message`` (the host reference's verdict) and ``n`` (the size).
    ``output``: what the kernel's printf calls wrote, in issue order (the
    lanes of one call in lane order; "" for none).
    ``compactability``: with compactability=True, the SLP paper's analysis
    (a warptlm.compaction.Compactability). ``record``: the run record a
    statistics file holds (version, command, mode, kernel, launch geometry,
    every configuration field, every statistic); :meth:`save` writes it.
    """

    stats: dict
    trace: object = None
    wall_seconds: float = 0.0
    total_seconds: float = 0.0
    passed: object = None
    message: str = ""
    n: object = None
    config: dict = field(default_factory=dict)
    compactability: object = None
    record: dict = None
    output: str = ""

    def save(self, path):
        """Writes the run record as JSON (what ``--stats`` writes)."""
        with open(path, "w", encoding="utf-8") as f:
            json.dump(self.record, f, indent=2)
            f.write("\n")


def check_mode(mode):
    if mode not in ("functional", "timing"):
        raise ValueError(f"mode must be 'functional' or 'timing', got {mode!r}")


def check_compactability(compactability, mode):
    if compactability and mode != "functional":
        raise ValueError("compactability: the analysis runs in the functional executor: use mode='functional'")


def trace_frame(columns, lines=None, texts=None, time_column="step"):
    """The trace DataFrame from the native per-column bytes, with each pc's
    PTX source line and instruction text (``lines``/``texts``, indexed by pc / 8)."""
    data = {name: np.frombuffer(columns[name], dtype=dtype) for name, dtype in _TRACE_COLUMNS}
    frame = pd.DataFrame(data)
    if lines is not None:
        index = (frame["pc"] // 8).to_numpy()
        frame["line"] = np.asarray(lines, dtype=np.uint32)[index]
        frame["instruction"] = np.asarray(texts, dtype=object)[index]
    return frame.rename(columns={"step": time_column})


def raise_fault(fault):
    raise KernelError(fault["message"], **{k: v for k, v in fault.items() if k != "message"})


def ordered_stats(stats):
    """The statistics in the model's documented order (warptlm.statistics())."""
    ordered = {name: stats[name] for name in statistics(breakdown=False) if name in stats}
    ordered.update((k, v) for k, v in stats.items() if k not in ordered)
    return ordered


def result_from(out, config, started, command, mode, outdir=None):
    """Result from a native run's dict (fault already handled by the caller);
    with ``outdir``, the run's files are written there."""
    trace = trace_frame(out["trace"], out.get("code_lines"), out.get("code_texts")) \
        if out.get("trace") is not None else None
    analysis = out.get("compactability")
    if analysis is not None:
        analysis = Compactability.from_native(analysis)
    stats = ordered_stats(out["stats"])
    record = run_record(command, mode, out, config, stats, out["wall_seconds"])
    if outdir is not None:
        write_outdir(outdir, record)
    return Result(stats=stats, trace=trace, wall_seconds=out["wall_seconds"],
                  total_seconds=time.perf_counter() - started, passed=out.get("passed"),
                  message=out.get("message", ""), n=out.get("n"), config=config, compactability=analysis,
                  record=record, output=out.get("output", ""))


def output_path(name, value, mode):
    if value is None:
        return ""
    if mode != "timing":
        raise ValueError(f"{name} files come from the timing model: pass mode='timing'")
    return os.fspath(os.path.abspath(value))
