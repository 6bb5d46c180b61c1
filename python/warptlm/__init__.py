"""warptlm: a SIMT GPU model for control-flow research, driven from Python.

    import numpy as np, warptlm
    k = warptlm.Kernel.from_ptx("vadd.ptx", "vadd")
    a = np.arange(1024, dtype=np.float32); out = np.zeros_like(a)
    r = warptlm.Platform("small", warp_size=16).launch(k, 4, 256, [a, a, out, np.int32(1024)])
    r.stats["simd_utilisation"], out[:4]

Every simulation runs in its own child process (see warptlm.isolation).
See docs/python.md for the tutorial.
"""

import sys

try:
    from . import _core
except ImportError as error:
    # `python3 -m warptlm` with a bad WARPTLM_PLUGINS: the one-line error and
    # exit status of the C++ CLI (while -m locates the package, argv[0] is "-m").
    if str(error).startswith("WARPTLM_PLUGINS: ") and sys.argv[:1] == ["-m"]:
        sys.stderr.write(f"warptlm: {error}\n")
        raise SystemExit(2) from None
    raise

__version__ = _core.version()
from . import platforms, scenarios
from .config import Platform, fields, presets
from .isolation import SimulationCrash, SimulationTimeout
from .kernel import CfgBlock, CompileError, Kernel, Param, PtxError, ReconvergingCfg
from .result import KernelError, Result
from .session import Session, launch_sequence
from .textures import Surface, Texture
from .cases import KernelCase
from .compaction import Compactability
from .scenarios import compactability
from .stats import Statistic, statistics
from .sweeping import expand_breakdown, sweep
from .plugins import load_plugin, loaded_plugins

__all__ = ["__version__", "Platform", "Texture", "Surface", "presets", "fields", "statistics", "Statistic", "schemes", "Kernel", "KernelCase", "Param", "Result", "Session", "launch_sequence", "sweep",
           "expand_breakdown", "Compactability", "compactability",
           "scenarios", "platforms", "load_plugin", "loaded_plugins", "KernelError", "SimulationCrash", "SimulationTimeout", "CompileError", "PtxError",
           "CfgBlock", "ReconvergingCfg"]


def schemes():
    """The names each pluggable policy accepts: {"reconvergence": [...],
    "scheduler": [...], "compaction": [...], "permutation": [...],
    "dram_scheduler": [...]} (the last for the field memory.dram.scheduler)."""
    return {"reconvergence": _core.reconvergence_names(), "scheduler": _core.scheduler_names(),
            "compaction": _core.compaction_names(), "permutation": _core.permutation_names(),
            "dram_scheduler": _core.dram_scheduler_names()}
