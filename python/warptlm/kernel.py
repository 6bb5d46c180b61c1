"""Kernels: PTX text (or CUDA C compiled to PTX by clang) plus its entry.

A Kernel is parsed and finalized in the calling process (parsing is not
simulation) so errors show up at once and ``branches`` and ``params`` can be
inspected; it is pickled as its PTX text, and every run parses it again in its
own child process.
"""

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass

from . import _core

__all__ = ["Kernel", "Param", "CompileError", "PtxError"]

PtxError = _core.PtxError

_SHIM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "include", "cuda_shim.h")


class CompileError(RuntimeError):
    """CUDA C could not be compiled to PTX: clang is missing or rejected the source."""

    def __init__(self, message, stderr=""):
        super().__init__(message)
        self.stderr = stderr


@dataclass(frozen=True)
class Param:
    """A kernel parameter: its name, PTX type (``"u64"``, ``"f32"``...) and size in bytes."""

    name: str
    type: str
    size: int


@dataclass(frozen=True)
class CfgBlock:
    """A block of a reconverging CFG: ``name`` (B0, B1... as ``warptlm analyze``
    numbers them, ``exit``, or ``flow0``... for inserted flow blocks), ``pc`` (its
    first instruction; None for the exit and flow blocks), ``successors`` (names),
    ``divergent``, ``flow``, and for a flow block its ``routes``: (from, heading_for,
    to) triples saying where a lane goes by the block it came from and the original
    block it was heading for."""

    name: str
    pc: object
    successors: tuple
    divergent: bool
    flow: bool
    routes: tuple


@dataclass(frozen=True)
class ReconvergingCfg:
    """One function's CFG after the reconverging transformation of compiler-side
    reconvergence (docs/reconverging-cfg.md): ``function``, ``blocks`` (CfgBlock,
    the function's blocks then the flow blocks), ``dot`` (Graphviz text)."""

    function: str
    blocks: tuple
    dot: str

    @property
    def flow_blocks(self):
        """How many flow blocks the transformation inserted."""
        return sum(1 for b in self.blocks if b.flow)

    @property
    def edges(self):
        """Every edge as a (from, to) pair of block names."""
        return [(b.name, s) for b in self.blocks for s in b.successors]


def _looks_like_ptx(text):
    return "\n" in text or ".entry" in text or ".version" in text


class Kernel:
    """One kernel entry of a PTX module.

    Attributes: ``entry``, ``params`` (list of :class:`Param`), ``registers``
    (32-bit registers a thread needs: the peak of its live PTX registers,
    device functions included; what a CTA is charged, up to
    ``sm.max_registers_per_thread``), ``branches``
    (the finalizer's facts per branch of the kernel and of the module's device
    functions: function, pc, target, reconvergence_pc (None: the function's
    exit), conditional, uniform_hint, structured, taint "P"/"D", line),
    ``ptx`` and ``source_name``; ``reconverging_cfg`` and ``reconverging_cfgs``
    (compiler-side reconvergence's transformed CFGs, computed when first read).
    """

    def __init__(self, ptx, entry, source_name="<string>"):
        info = _core.analyze(ptx, source_name)
        names = [k["name"] for k in info["kernels"]]
        if entry not in names:
            entry = _resolve_mangled(entry, names, source_name)
        kernel = next(k for k in info["kernels"] if k["name"] == entry)
        self.ptx = ptx
        self.entry = entry
        self.source_name = source_name
        self.params = [Param(p["name"], p["type"], p["size"]) for p in kernel["params"]]
        self.registers = kernel["registers"]
        device_functions = set(info["functions"])
        self.branches = [b for b in info["branches"] if b["function"] == entry or b["function"] in device_functions]

    @classmethod
    def from_ptx(cls, path_or_text, entry):
        """From a .ptx file path or PTX text. Raises PtxError for bad PTX and
        ValueError naming the module's kernels when ``entry`` is not one."""
        text = os.fspath(path_or_text) if isinstance(path_or_text, os.PathLike) else path_or_text
        if not _looks_like_ptx(text):
            with open(text, encoding="utf-8") as f:
                return cls(f.read(), entry, source_name=text)
        return cls(text, entry)

    @classmethod
    def from_cuda(cls, source, entry, arch="sm_70", opt="-O3", ptx64=False, include_dirs=(), defines=None,
                  flags=(), clang=None, shim=True):
        """Compile CUDA C (a .cu path or source text) to PTX with clang, without
        the CUDA toolkit, as scenarios/regen_ptx.sh does.

        The ordinary CUDA spellings work: ``threadIdx``, ``blockIdx``,
        ``blockDim``, ``gridDim``, ``warpSize``, ``__global__``, ``__device__``,
        ``__shared__``, ``__constant__``, ``__syncthreads()``, ``atomicAdd``,
        ``atomicCAS``... (the package's cuda_shim.h, pre-included unless
        ``shim=False``; the built-in variables are clang's own).
        Options: ``arch`` (``--cuda-gpu-arch``), ``opt`` (``-O0``..``-O3``),
        ``ptx64`` (adds the +ptx64 target feature, needed for shuffles and
        votes), ``include_dirs``, ``defines`` ({name: value}), extra ``flags``,
        ``clang`` (the compiler; default $CLANG, then clang-14, then clang).
        Raises CompileError with the compiler's message.
        """
        compiler = clang or os.environ.get("CLANG") or shutil.which("clang-14") or shutil.which("clang")
        if not compiler or not shutil.which(compiler):
            raise CompileError("clang not found: Kernel.from_cuda needs clang (Debian package 'clang') "
                               "on PATH, $CLANG, or clang=...")
        with tempfile.TemporaryDirectory(prefix="warptlm-cuda-") as tmp:
            if isinstance(source, os.PathLike) or (not _looks_like_cuda(source) and os.path.exists(source)):
                path, name = os.fspath(source), os.fspath(source)
            else:
                path, name = os.path.join(tmp, "kernel.cu"), "<cuda source>"
                with open(path, "w", encoding="utf-8") as f:
                    f.write(source)
            out = os.path.join(tmp, "kernel.ptx")
            cmd = [compiler, "-x", "cuda", "--cuda-device-only", f"--cuda-gpu-arch={arch}", "-nocudainc",
                   "-nocudalib", opt, "-ffp-contract=off", "-Wno-unknown-cuda-version", "-S", "-o", out]
            if ptx64:
                cmd += ["-Xclang", "-target-feature", "-Xclang", "+ptx64"]
            if shim:
                cmd += ["-include", _SHIM]
            cmd += [f"-I{d}" for d in include_dirs]
            cmd += [f"-D{k}" if v is None else f"-D{k}={v}" for k, v in (defines or {}).items()]
            cmd += list(flags) + [path]
            proc = subprocess.run(cmd, capture_output=True, text=True)
            if proc.returncode != 0:
                raise CompileError(f"clang could not compile {name}:\n{proc.stderr.strip()}", proc.stderr)
            with open(out, encoding="utf-8") as f:
                ptx = f.read()
        return cls(ptx, entry, source_name=name if name != "<cuda source>" else "<cuda source>.ptx")

    def _reconverging_results(self):
        if getattr(self, "_reconverging", None) is None:
            device_functions = {b["function"] for b in self.branches} | set(_core.analyze(self.ptx, self.source_name)["functions"])
            results = {}
            for f in _core.reconverging_cfgs(self.ptx, self.source_name):
                if f["function"] != self.entry and f["function"] not in device_functions:
                    continue  # another kernel of the module
                if f["error"] is not None:
                    results[f["function"]] = ValueError(f["error"])
                    continue
                blocks = tuple(CfgBlock(b["name"], b["pc"], tuple(b["successors"]), b["divergent"], b["flow"],
                                        tuple(tuple(r) for r in b["routes"])) for b in f["blocks"])
                results[f["function"]] = ReconvergingCfg(f["function"], blocks, f["dot"])
            self._reconverging = results
        return self._reconverging

    @property
    def reconverging_cfgs(self):
        """{function name: ReconvergingCfg} for the kernel and the module's device
        functions (compiler-side reconvergence). Raises ValueError naming the
        function, block and reason when one cannot be made reconverging (a block
        that cannot reach the exit)."""
        results = self._reconverging_results()
        for r in results.values():
            if isinstance(r, ValueError):
                raise r
        return dict(results)

    @property
    def reconverging_cfg(self):
        """The kernel's own ReconvergingCfg (see reconverging_cfgs)."""
        r = self._reconverging_results()[self.entry]
        if isinstance(r, ValueError):
            raise r
        return r

    def __reduce__(self):
        return (Kernel, (self.ptx, self.entry, self.source_name))

    def __repr__(self):
        params = ", ".join(f"{p.type} {p.name}" for p in self.params)
        return f"Kernel({self.entry}({params}) from {self.source_name})"


def _looks_like_cuda(text):
    return "\n" in text or "__global__" in text


def _resolve_mangled(entry, names, source_name):
    """A C++ kernel's PTX name is mangled (_Z4vaddPfS_i); accept its plain name."""
    pattern = re.compile(rf"^_Z{len(entry)}{re.escape(entry)}\w*$")
    matches = [n for n in names if pattern.match(n)]
    if len(matches) == 1:
        return matches[0]
    raise ValueError(f"no kernel named '{entry}' in {source_name} (kernels: {kernel_names_text(names)})")


def kernel_names_text(names):
    """Kernel names for a message: the first ten, then "and N more", or "none"."""
    listed = ", ".join(names[:10]) + (f" and {len(names) - 10} more" if len(names) > 10 else "")
    return listed or "none"
