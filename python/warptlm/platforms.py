"""Platforms: the GPU elaborated next to a host CPU, a bus and memories.

A platform is described by data (docs/platforms.md): the built-in ones are
``list()`` (standalone, soc, multi_gpu), and any .yaml/.json file is one too.
``run()`` elaborates it, lets its host CPU run scenarios on its GPUs through
the C driver, checks every output against the scenario's host reference and
returns every module's statistics, the same record ``warptlm platform``
prints from.

    r = warptlm.platforms.run("soc", "bfs", mode="at", set={"gpu0.num_sms": 4})
    r.passed, r.jobs[0]["launch_cycles"], r.stats["bus"]["windows"]
    view = warptlm.platforms.elaborate("multi_gpu")   # hierarchy, bindings, address maps
"""

import builtins

from . import _core, isolation

__all__ = ["list", "run", "elaborate", "PlatformResult"]


def list():  # noqa: A001 - the API name is fixed
    """Names of the built-in platforms."""
    return builtins.list(_core.platform_names())


def _setting_text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def settings(set):  # noqa: A002 - mirrors the CLI's --set
    """NAME=VALUE strings from a dict {name: value} or an iterable of such strings."""
    if set is None:
        return []
    if isinstance(set, dict):
        return [f"{name}={_setting_text(value)}" for name, value in set.items()]
    if isinstance(set, str):
        raise TypeError("set= takes a dict {name: value} or a list of 'NAME=VALUE' strings, not one string")
    return [str(s) for s in set]


def _scenarios(scenario):
    if scenario is None:
        return []
    if isinstance(scenario, str):
        return [scenario]
    if isinstance(scenario, dict):
        return [f"{gpu}={name}" for gpu, name in scenario.items()]
    if isinstance(scenario, (builtins.list, tuple)) and all(isinstance(s, str) for s in scenario):
        return builtins.list(scenario)  # as the CLI's --scenario: "NAME" or "GPU=NAME"
    raise TypeError(f"scenario must be a name (every GPU), a dict {{gpu: name}} or a list of 'NAME' / "
                    f"'GPU=NAME', got {scenario!r}")


class PlatformResult:
    """One platform run: ``record`` (the JSON record), ``passed``, ``jobs``
    (one dict per GPU: gpu, scenario, n, seed, status, error, launch_cycles,
    launched_ns, finished_ns, passed, message), ``stats`` (every module's
    statistics by module name), ``configs`` (each GPU's effective
    configuration)."""

    def __init__(self, record):
        self.record = record
        self.passed = record["passed"]
        self.jobs = record["jobs"]
        self.stats = record["modules"]
        self.configs = record["configs"]
        self.simulated_ns = record["simulated_ns"]

    def summary(self):
        """The text ``warptlm platform`` prints."""
        return _core.platform_summary_text(self.record)

    def __repr__(self):
        jobs = ", ".join(f"{j['gpu']}: {j['scenario']} {'PASS' if j['passed'] else 'FAIL'}" for j in self.jobs)
        return f"<PlatformResult {self.record['platform']}: {jobs}>"


def run(platform, scenario=None, *, size="test", seed=None, mode=None, set=None,  # noqa: A002
        vcd=None, timeline=None, timeout=None):
    """Run ``platform`` (a built-in name or a .yaml/.json file).

    ``scenario``: a scenario name every GPU the host drives runs, a dict
    {gpu: scenario}, or the CLI's list of "NAME" / "GPU=NAME"; default: the
    platform file's jobs. ``size``: "test",
    "study" or n. ``seed``: of the input generators (default: each GPU's).
    ``mode``: "lt" or "at", the coding style of every GPU (default: as
    described). ``set``: settings by hierarchical name, {"gpu0.num_sms": 4,
    "ram.latency_ns": 20} or ["gpu0.num_sms=4"]. ``vcd``: a VCD of the GPUs'
    top-level signals. ``timeline``: a warp timeline for Perfetto (with
    several GPUs one file per GPU, "t.json" -> "t.gpu0.json", ...; the
    record's "timelines" lists them). Isolated in a child process like every simulation;
    ValueError for a bad platform, setting, scenario or size.
    """
    if mode not in (None, "lt", "at"):
        raise ValueError(f"mode {mode!r}: a platform runs in 'lt' or 'at'")
    if isinstance(size, bool) or not isinstance(size, (str, int)):
        raise TypeError(f"size must be 'test', 'study' or an int, got {size!r}")
    sets = settings(set)
    _core.check_platform(str(platform), sets)  # a bad file or setting fails here, before a child
    record = isolation.call(
        "run_platform",
        dict(platform=str(platform), scenarios=_scenarios(scenario), size=str(size),
             seed=None if seed is None else int(seed), mode=mode or "", sets=sets, vcd_path=vcd or "",
             timeline_path=timeline or ""),
        timeout=timeout, what=f"platform {platform}")
    return PlatformResult(record)


def elaborate(platform, format="json", *, mode=None, set=None, timeout=None):  # noqa: A002
    """What ``platform`` elaborates to, read from the SystemC objects: as a
    dict (``format="json"``: top, modules, hierarchy, bindings (every
    initiator socket and what it is bound to), signals, address_maps,
    configuration (every field of every module with ``value`` and ``from``,
    where it came from)), or the text ``warptlm elaborate`` prints
    (``"text"``, ``"dot"``). ``mode`` and ``set`` as for :func:`run`."""
    if format not in ("json", "text", "dot"):
        raise ValueError(f"format {format!r}: json, text or dot")
    if mode not in (None, "lt", "at"):
        raise ValueError(f"mode {mode!r}: a platform runs in 'lt' or 'at'")
    sets = settings(set)
    _core.check_platform(str(platform), sets)
    view = isolation.call("elaborate_platform", dict(platform=str(platform), mode=mode or "", sets=sets),
                          timeout=timeout, what=f"elaborating platform {platform}")
    return view if format == "json" else _core.elaboration_in_format(view, format)


class Base:
    """A platform as the base of a sweep: ``warptlm.sweep(Base("soc", mode="at"),
    {"gpu0.num_sms": [1, 2], "ram.latency_ns": [20, 100]}, ["bfs"])``. The grid's
    names are settings by hierarchical name (as ``set=``); each row runs the
    scenario on every GPU the host drives and holds the platform, the settings,
    scenario, size and mode, then every module's statistics as columns named
    ``module.statistic`` (a GPU's whole-GPU timing statistics, ``ram.reads``,
    ``bus.ram.socket.reads``, ``host.mmio_writes``, ...)."""

    def __init__(self, platform, mode=None, set=None):  # noqa: A002
        if mode not in (None, "lt", "at"):
            raise ValueError(f"mode {mode!r}: a platform runs in 'lt' or 'at'")
        self.platform = str(platform)
        self.mode = mode
        self.settings = settings(set)
        self.outline = _core.platform_outline(self.platform, self.settings)  # ValueError if bad

    def __repr__(self):
        return f"warptlm.platforms.Base({self.platform!r}, mode={self.mode!r}, set={self.settings!r})"

    def columns(self, gpu_statistics):
        """The statistic columns of this platform's rows."""
        cols = []
        for m in self.outline["modules"]:
            name, kind = m["name"], m["kind"]
            if kind == "gpu":
                cols += [f"{name}.{s}" for s in gpu_statistics]
            elif kind == "host":
                cols += [f"{name}.{k}" for k in _HOST_KEYS]
            elif kind == "memory":
                cols += [f"{name}.{k}" for k in _MEMORY_KEYS]
            elif kind == "router":
                for target in self.outline.get("windows", {}).get(name, []):
                    cols += [f"{name}.{target}.{k}" for k in ("reads", "writes", "bytes")]
                cols += [f"{name}.unmapped", f"{name}.dmi_invalidations"]
        return cols


_HOST_KEYS = ("mmio_reads", "mmio_writes", "bytes_copied_in", "bytes_copied_out")
_MEMORY_KEYS = ("reads", "writes", "errors", "dmi_grants", "dmi_refusals", "debug_accesses")


def flatten(record, kinds):
    """A run record's module statistics as {column: value} (see Base.columns)."""
    out = {}
    for name, stats in record["modules"].items():
        kind = kinds.get(name)
        if kind == "router":
            for target, w in stats["windows"].items():
                for k in ("reads", "writes", "bytes"):
                    out[f"{name}.{target}.{k}"] = w[k]
            out[f"{name}.unmapped"] = stats["unmapped"]
            out[f"{name}.dmi_invalidations"] = stats["dmi_invalidations"]
        else:
            for k, v in stats.items():
                if k != "jobs":
                    out[f"{name}.{k}"] = v
    return out
