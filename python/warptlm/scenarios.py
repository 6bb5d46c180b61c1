"""The built-in scenarios: real CUDA kernels with seeded inputs and host references.

``list()`` names them, ``describe(name)`` gives their metadata and ``run()``
runs one on a platform, isolated, and checks its outputs against the host
reference (``Result.passed``).
"""

import builtins
import time

from . import _core, isolation
from .result import check_compactability, check_mode, output_path, raise_fault, result_from
from .records import outdir_paths

__all__ = ["list", "describe", "run", "compactability"]


def list():  # noqa: A001 - the API name is fixed
    """Names of the built-in scenarios, in catalogue order."""
    return builtins.list(_core.scenario_names())


def describe(name):
    """{name, title, mirrors, divergence, sizes ({"test": n, "study": n}),
    min_n, max_n, n_multiple, entry, source}. ValueError for an unknown name."""
    return _core.scenario_info(name)


def size_text(size):
    """"test", "study" or a number, as the native core resolves it."""
    if isinstance(size, bool) or not isinstance(size, (str, int)):
        raise TypeError(f"size must be 'test', 'study' or an int, got {size!r}")
    return str(size)


def run_native(platform_config_json, config, name, size="test", seed=None, trace=False, timeout=None,
               mode="functional", timeline=None, vcd=None, compactability=False):
    """The isolated native call behind :func:`run` and sweeps: the native dict."""
    return isolation.call(
        "run_scenario",
        dict(name=name, size=size_text(size), seed=int(config["seed"] if seed is None else seed),
             config_json=platform_config_json, trace=bool(trace), mode=mode,
             timeline_path=output_path("timeline", timeline, mode), vcd_path=output_path("vcd", vcd, mode),
             compactability=bool(compactability)),
        timeout=timeout, debug_crash=isolation.debug_crash_for(config, {"scenario": name}),
        what=f"scenario {name} (size {size}, {mode})")


def run(platform, name, size="test", mode="functional", **params):
    """Run scenario ``name`` on ``platform`` and check it against its host reference.

    ``size``: "test", "study" or a size parameter n in the scenario's range.
    ``params``: ``seed`` (of the input generator; default the platform's
    seed), ``trace`` (bool, as in launch), ``timeout`` (seconds), in timing
    mode ``timeline`` / ``vcd`` (output paths, as in launch), and in
    functional mode ``compactability`` (bool: the Result's ``compactability``
    holds the SLP paper's analysis, a warptlm.compaction.Compactability),
    ``outdir`` (a folder for the run's files, as in launch).
    Returns a Result with ``passed`` and ``message``; a kernel fault raises
    KernelError.
    """
    unknown = set(params) - {"seed", "trace", "timeout", "timeline", "vcd", "compactability", "outdir"}
    if unknown:
        raise TypeError(f"run() got unknown scenario parameter(s) {', '.join(sorted(unknown))}; "
                        "scenarios take seed, trace, timeout, timeline, vcd, compactability and outdir")
    check_compactability(params.get("compactability", False), mode)
    check_mode(mode)
    describe(name)  # an unknown name fails here, before a child is forked
    started = time.perf_counter()
    config = platform.config
    outdir = params.get("outdir")
    timeline, vcd = outdir_paths(outdir, mode, params.get("timeline"), params.get("vcd"))
    out = run_native(platform.config_json(), config, name, size, params.get("seed"), params.get("trace", False),
                     params.get("timeout"), mode=mode, timeline=timeline, vcd=vcd,
                     compactability=params.get("compactability", False))
    if out["fault"] is not None:
        raise_fault(out["fault"])
    return result_from(out, config, started, "run", mode, outdir)


def compactability(platform, name, size="test", seed=None, timeout=None):
    """Run scenario ``name`` on ``platform`` with the analysis; returns the
    :class:`Compactability` (the run's outputs are checked against the host
    reference as usual: a mismatch raises RuntimeError)."""
    result = run(platform, name, size, seed=seed, timeout=timeout, compactability=True)
    if not result.passed:
        raise RuntimeError(f"scenario {name}: outputs differ from the host reference: {result.message}")
    return result.compactability
