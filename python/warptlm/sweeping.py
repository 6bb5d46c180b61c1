"""Sweeps: the cartesian product of configuration values over scenarios.

Every (point, scenario) pair becomes one row: the full configuration, the
scenario and size, every statistic, ``passed``, ``message``, ``error`` (empty
unless the run raised, crashed or timed out) and ``wall_seconds``, plus a
``key`` that identifies the pair for resuming. Each run is isolated in its own
child process (see warptlm.isolation), whichever backend schedules it.
"""

import concurrent.futures
import difflib
import fnmatch
import hashlib
import itertools
import json
import logging
import os
import sys

import time

import pandas as pd

from . import _core, isolation
from . import platforms as platform_api
from . import scenarios as scenario_api
from .config import Platform, field_names, normalise_overrides
from .cases import KernelCase
from .launch import KernelError, launch
from .stats import statistics
from .store import open_store

__all__ = ["sweep", "run_point", "run_platform_point", "result_columns", "expand_breakdown"]


def recorded_statistics(mode="functional", record=None):
    """The statistics a sweep keeps: every whole-GPU one of ``mode``, or those
    matching ``record`` (names or glob patterns such as "sm.slot_*"), in
    report order. ValueError for a pattern that matches none."""
    names = list(statistics(mode, breakdown=False))
    if record is None:
        return names
    patterns = [record] if isinstance(record, str) else list(record)
    if not patterns or not all(isinstance(p, str) for p in patterns):
        raise TypeError(f"record must be a statistic name, a glob pattern or a list of them, got {record!r}")
    for pattern in patterns:
        if not fnmatch.filter(names, pattern):
            close = difflib.get_close_matches(pattern, names, n=3)
            hint = f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""
            raise ValueError(f"record: '{pattern}' matches no {mode} statistic{hint}; see warptlm.statistics()")
    return [n for n in names if any(fnmatch.fnmatchcase(n, p) for p in patterns)]


def result_columns(mode="functional", breakdown=False, record=None):
    """The columns of a sweep's rows, in order. Timing mode adds the whole-GPU
    timing statistics and, with ``breakdown``, a ``breakdown`` column holding
    the per-SM, per-channel and per-port statistics as a JSON object (their
    number depends on the configuration, so they share one column;
    expand_breakdown() turns it into columns). ``record`` keeps only the
    statistics it names (recorded_statistics())."""
    fields = field_names()
    stats = recorded_statistics(mode, record)
    if breakdown:
        stats.append("breakdown")
    columns = (fields + ["scenario", "size"] + (["mode"] if mode == "timing" else []) + stats
               + ["passed", "message", "error", "wall_seconds", "key"])
    clashes = sorted({c for c in columns if columns.count(c) > 1})
    if clashes:  # configuration and statistics must never share a column
        raise RuntimeError(f"sweep columns named twice: {', '.join(clashes)}")
    return columns


def expand_breakdown(frame):
    """``frame`` with its ``breakdown`` column (JSON objects) replaced by one
    column per breakdown statistic (sm0.cycles, dram.channel3.reads, ...),
    in the order the runs reported them; rows without one get NaN."""
    if "breakdown" not in frame.columns:
        raise ValueError("the frame has no 'breakdown' column: sweep with mode='timing', breakdown=True")
    parsed = [json.loads(text) if isinstance(text, str) and text else {} for text in frame["breakdown"]]
    names = list(dict.fromkeys(name for row in parsed for name in row))
    wide = pd.DataFrame(parsed, columns=names, index=frame.index)
    return pd.concat([frame.drop(columns="breakdown"), wide], axis=1)


def _point_key(config, scenario, size, mode="functional", breakdown=False, record=None):
    point = {"config": config, "scenario": scenario, "size": size}
    if record is not None:  # a row holding fewer statistics does not answer for one holding more
        point["record"] = record
    if mode != "functional":  # functional keys stay as earlier sweeps stored them
        point["mode"] = mode
    if breakdown:  # a stored row without the breakdown does not answer for one with it
        point["breakdown"] = True
    text = json.dumps(point, sort_keys=True)
    return hashlib.sha1(text.encode()).hexdigest()[:16]


def _parse_scenario(spec):
    """"name" or "name:size" -> (name, size), checked against the scenario's
    sizes; a KernelCase -> (its name, its fingerprint as the size)."""
    if isinstance(spec, KernelCase):
        return spec.name, f"kernel:{spec.fingerprint()}"
    name, _, size = str(spec).partition(":")
    size = size or "test"
    info = scenario_api.describe(name)  # ValueError naming the known scenarios
    if size not in info["sizes"]:
        try:
            n = int(size)
        except ValueError:
            n = None
        if n is None or not info["min_n"] <= n <= info["max_n"] or n % info["n_multiple"]:
            raise ValueError(f"scenario {name}: size {size!r} is not one of {', '.join(info['sizes'])} or a "
                             f"multiple of {info['n_multiple']} in [{info['min_n']}, {info['max_n']}]")
    return name, size


def run_point(task):
    """Run one (configuration, scenario, size) isolated; always returns a row.

    A fault, crash, timeout or any other exception becomes the row's error.
    Top-level so Dask can ship it to its workers.
    """
    config, scenario, size, timeout = task["config"], task["scenario"], task["size"], task["timeout"]
    mode = task.get("mode", "functional")
    breakdown = task.get("breakdown", False)
    kept = task.get("record")
    row = dict(config)
    row.update(scenario=scenario, size=size)
    if mode != "functional":
        row["mode"] = mode
    try:
        case = task.get("case")
        if case is None:
            out = scenario_api.run_native(json.dumps(config), config, scenario, size, timeout=timeout, mode=mode)
        else:
            out = _run_case(case, config, timeout, mode)
    except Exception as exc:  # the row records it; the sweep goes on
        row.update(passed=False, message="", error=f"{type(exc).__name__}: {exc}", wall_seconds=None)
    else:
        stats = out["stats"]
        row.update({k: v for k, v in stats.items()
                    if not _core.is_breakdown_stat(k) and (kept is None or k in kept)})
        if breakdown:
            row["breakdown"] = json.dumps({k: v for k, v in stats.items() if _core.is_breakdown_stat(k)})
        fault = out["fault"]
        row.update(passed=bool(out["passed"]), message=out["message"] if fault is None else "",
                   error="" if fault is None else f"KernelError: {fault['message']}",
                   wall_seconds=out["wall_seconds"])
    row["key"] = task["key"]
    return row


class _PointPlatform:
    """What launch() needs of a platform, for one sweep point's configuration."""

    def __init__(self, config):
        self.config = config

    def config_json(self):
        return json.dumps(self.config)


def _run_case(case, config, timeout, mode):
    """A KernelCase at one point: the launch and its checker, as the native
    scenario run's dict (stats, fault, passed, message, wall_seconds)."""
    args = case.arguments(config)
    try:
        result = launch(_PointPlatform(config), case.kernel, case.grid, case.block, args,
                        shared_bytes=case.shared_bytes, mode=mode, timeout=timeout)
    except KernelError as fault:
        return {"stats": {}, "fault": {"message": str(fault)}, "passed": False, "message": "",
                "wall_seconds": None}
    passed, message = case.verdict(args, config)
    return {"stats": result.stats, "fault": None, "passed": passed, "message": message,
            "wall_seconds": result.wall_seconds}


def _as_platform(base):
    if isinstance(base, Platform):
        return base
    if isinstance(base, str):
        return Platform(base)
    if isinstance(base, dict):
        base = dict(base)
        return Platform(base.pop("preset", "small"), **base)
    raise TypeError(f"base must be a Platform, a preset name or a dict, got {type(base).__name__}")


def _grid_points(grid):
    """The points of ``grid`` as flat {field: value} dicts, in grid order: the
    cartesian product of a {field: [values]} dict, or a list of points as given."""
    if isinstance(grid, dict):
        grid = normalise_overrides({k: list(v) if isinstance(v, (list, tuple, range)) else [v]
                                    for k, v in grid.items()}) if grid else {}
        names = list(grid)
        return [dict(zip(names, values)) for values in itertools.product(*(grid[n] for n in names))]
    if isinstance(grid, (list, tuple)) and all(isinstance(p, dict) for p in grid):
        if not grid:
            raise ValueError("grid: an empty list of points")
        return [normalise_overrides(p) if p else {} for p in grid]
    raise TypeError("grid must be a dict {field: [values]} or a list of points [{field: value}, ...]")


def _tasks(base, grid, scenarios, timeout, mode="functional", breakdown=False, record=None):
    points = _grid_points(grid)
    items = [scenarios] if isinstance(scenarios, (str, KernelCase)) else list(scenarios)
    specs = [_parse_scenario(s) for s in items]
    cases = [s if isinstance(s, KernelCase) else None for s in items]
    if not specs:
        raise ValueError("sweep needs at least one scenario")
    if len(set(specs)) != len(specs):
        raise ValueError("sweep: a scenario or kernel case is listed twice (give kernel cases distinct names)")
    tasks = []
    seen = {}
    for index, point in enumerate(points):
        config = base.with_(**point).config  # ValueError for a bad value, before any run
        text = json.dumps(config, sort_keys=True)
        if text in seen:
            raise ValueError(f"grid: point {index} {point} is the same configuration as point {seen[text]}")
        seen[text] = index
        for (name, size), case in zip(specs, cases):
            tasks.append(dict(config=config, scenario=name, size=size, timeout=timeout, mode=mode,
                              breakdown=breakdown, record=record, case=case,
                              key=_point_key(config, name, size, mode, breakdown, record)))
    return tasks


def _progress(total, stored, enabled):
    """A tqdm bar over ``total`` runs of which ``stored`` were read back from
    the results file: it starts there (so its rate counts only new runs) and
    says how many it skipped. ``enabled``: a bool, or the bar's label."""
    from tqdm import tqdm

    label = enabled if isinstance(enabled, str) else "warptlm sweep"
    bar = tqdm(total=total, initial=stored, unit="run", disable=not enabled, desc=label)
    if stored:
        bar.set_postfix_str(f"{stored} stored, skipped", refresh=False)
    return bar


def _run_local(todo, workers, on_row, run=run_point):
    # Threads suffice: each only waits on its own launcher's child process.
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=workers)
    futures = [pool.submit(run, t) for t in todo]
    try:
        for future in concurrent.futures.as_completed(futures):
            on_row(future.result())
    except BaseException:  # interrupted: stop queued runs, kill running ones
        pool.shutdown(wait=False, cancel_futures=True)
        isolation.kill_active()
        raise
    pool.shutdown()


def _run_dask(todo, workers, address, on_row, run=run_point):
    from distributed import Client, LocalCluster, as_completed

    cluster = None
    if address is None:
        # One thread per worker: never two simulations in one process at once.
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None, silence_logs=logging.ERROR)
        address = cluster
    client = Client(address)
    try:
        futures = [client.submit(run, t, pure=False) for t in todo]
        for future in as_completed(futures):
            on_row(future.result())
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def run_platform_point(task):
    """Run one (platform settings, scenario, size) isolated; always returns a row."""
    row = {"platform": task["platform"], **task["point"], "scenario": task["scenario"], "size": task["size"],
           "mode": task["mode"] or ""}
    started = time.perf_counter()
    try:
        record = isolation.call(
            "run_platform",
            dict(platform=task["platform"], scenarios=[task["scenario"]], size=str(task["size"]), seed=None,
                 mode=task["mode"] or "", sets=task["settings"], vcd_path=""),
            timeout=task["timeout"], what=f"platform {task['platform']} with {task['scenario']}")
    except Exception as exc:  # the row records it; the sweep goes on
        row.update(passed=False, message="", error=f"{type(exc).__name__}: {exc}", wall_seconds=None)
    else:
        flat = platform_api.flatten(record, task["kinds"])
        row.update({c: flat.get(c) for c in task["stat_columns"]})
        row.update(passed=bool(record["passed"]),
                   message="; ".join(f"{j['gpu']}: {j['message']}" for j in record["jobs"]), error="",
                   wall_seconds=time.perf_counter() - started)
    row["key"] = task["key"]
    return row


def _platform_tasks(base, grid, scenarios, timeout, record):
    if not isinstance(grid, dict):
        raise TypeError("grid must be a dict {setting: [values]}")
    grid = {k: list(v) if isinstance(v, (list, tuple, range)) else [v] for k, v in grid.items()}
    items = [scenarios] if isinstance(scenarios, str) else list(scenarios)
    if any(isinstance(s, KernelCase) for s in items):
        raise ValueError("a platform sweep runs built-in scenarios (its host runs them on every GPU)")
    specs = [_parse_scenario(s) for s in items]
    if not specs:
        raise ValueError("sweep needs at least one scenario")
    kinds = {m["name"]: m["kind"] for m in base.outline["modules"]}
    stat_columns = base.columns(recorded_statistics("timing", record))
    names = list(grid)
    tasks = []
    for values in itertools.product(*(grid[n] for n in names)):
        point = dict(zip(names, values))
        settings = base.settings + platform_api.settings(point)
        _core.check_platform(base.platform, settings)  # ValueError for a bad setting, before any run
        for name, size in specs:
            key = hashlib.sha1(json.dumps({"platform": base.platform, "settings": settings, "scenario": name,
                                           "size": size, "mode": base.mode, "record": record},
                                          sort_keys=True).encode()).hexdigest()[:16]
            tasks.append(dict(platform=base.platform, point=point, settings=settings, scenario=name, size=size,
                              mode=base.mode, timeout=timeout, kinds=kinds, stat_columns=stat_columns, key=key))
    columns = (["platform"] + names + ["scenario", "size", "mode"] + stat_columns
               + ["passed", "message", "error", "wall_seconds", "key"])
    return tasks, columns


def _sweep_tasks(tasks, columns, run, workers, backend, address, out, resume, progress):
    """Runs the tasks not already in ``out``; the frame of every task's row."""
    store = open_store(out, columns, resume) if out is not None else None
    done = {}
    if store is not None and resume and len(store.existing):
        wanted = {t["key"] for t in tasks}
        for row in store.existing.to_dict("records"):
            if row.get("key") in wanted:
                done[row["key"]] = row
    todo = [t for t in tasks if t["key"] not in done]
    bar = _progress(len(tasks), len(tasks) - len(todo), sys.stderr.isatty() if progress is None else progress)

    def on_row(row):
        done[row["key"]] = row
        if store is not None:
            store.append(row)
        bar.update(1)

    try:
        if todo:
            if backend == "local":
                _run_local(todo, workers, on_row, run)
            else:
                _run_dask(todo, workers, address, on_row, run)
    finally:
        bar.close()
        if store is not None:
            store.close()
    frame = pd.DataFrame([done[t["key"]] for t in tasks], columns=columns)
    for text in ("message", "error"):  # empty in rows read back from a file are NaN
        frame[text] = frame[text].fillna("")
    return frame


def sweep(base, grid, scenarios, workers=None, backend="local", address=None, out=None, resume=True,
          timeout=None, progress=None, mode="functional", breakdown=False, record=None):
    """Run every point of ``grid`` on every scenario; one row per (point, scenario).

    ``base``: a Platform (or preset name, or dict with "preset" and fields),
    or a :class:`warptlm.platforms.Base` to sweep a whole platform (its grid
    names are settings by hierarchical name, "gpu0.num_sms", "ram.latency_ns";
    its rows hold every module's statistics as "module.statistic").
    ``grid``: {field: [values]} (nested names as "memory.l1.size" or
    memory__l1__size), every combination of them; or a list of points
    [{field: value}, ...], run as given (configurations that are not a
    product: [{"compaction": "none"}, {"compaction": "tbc", "permutation":
    "balanced"}]). ``scenarios``: names, or "name:size" for a size other
    than "test", and :class:`warptlm.KernelCase` objects for kernels of your
    own (their rows' ``size`` is "kernel:" and a fingerprint of the PTX,
    geometry and arguments). ``workers``: parallel runs (default: the CPU cores available).
    ``backend``: "local" (this machine) or "dask" (dask.distributed at
    ``address``, or a LocalCluster of ``workers`` one-thread workers).
    ``out``: CSV path, or SQLite for .db; rows are appended as they arrive and
    with ``resume`` the pairs already there are not run again (resume=False
    replaces the file). ``timeout``: seconds per run. ``progress``: a tqdm bar
    (default: when stderr is a terminal; a string shows it with that label). ``mode``: "functional" or "timing"
    (rows then carry the whole-GPU timing statistics: cycles, ipc, sm.slot_*...).
    ``breakdown``: timing mode only; rows also keep the per-SM, per-DRAM-channel
    and per-port statistics, as JSON in a ``breakdown`` column (expand_breakdown()).
    ``record``: statistic names or glob patterns ("ipc", "sm.slot_*") to keep
    instead of every statistic (a timing row otherwise holds about 170).

    Returns a DataFrame of every row of this sweep (stored ones included), in
    grid order. Unknown fields and bad values raise ValueError before anything runs.
    """
    if backend not in ("local", "dask"):
        raise ValueError(f"backend must be 'local' or 'dask', got {backend!r}")
    if workers is None:
        workers = len(os.sched_getaffinity(0))
    if not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive int, got {workers!r}")
    if mode not in ("functional", "timing"):
        raise ValueError(f"mode must be 'functional' or 'timing', got {mode!r}")
    if breakdown and mode != "timing":
        raise ValueError("breakdown=True needs mode='timing' (functional runs have no per-SM statistics)")
    timeout = isolation.check_timeout(timeout)
    if isinstance(base, platform_api.Base):
        if mode != "functional" or breakdown:
            raise ValueError("a platform sweep takes its mode from its base (Base(platform, mode='lt'|'at')) "
                             "and has no breakdown")
        if record is not None:
            record = recorded_statistics("timing", record)
        tasks, columns = _platform_tasks(base, grid, scenarios, timeout, record)
        return _sweep_tasks(tasks, columns, run_platform_point, workers, backend, address, out, resume, progress)
    columns = result_columns(mode, bool(breakdown), record)
    if record is not None:
        record = recorded_statistics(mode, record)
    tasks = _tasks(_as_platform(base), grid, scenarios, timeout, mode, bool(breakdown), record)
    return _sweep_tasks(tasks, columns, run_point, workers, backend, address, out, resume, progress)
