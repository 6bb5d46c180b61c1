"""A user's own kernel as a sweep point: a :class:`KernelCase` goes into
``warptlm.sweep(..., scenarios=[...])`` beside built-in scenario names, locally
or on Dask (it pickles as its PTX text, its arguments and its functions)."""

import hashlib
from dataclasses import dataclass

import numpy as np

from .kernel import Kernel

__all__ = ["KernelCase"]


@dataclass(frozen=True)
class KernelCase:
    """One kernel launch to run at every point of a sweep.

    ``name``: the row's ``scenario`` column. ``kernel``: a :class:`Kernel`
    (from PTX or CUDA C). ``grid``, ``block``, ``shared_bytes``: as in
    ``Platform.launch``. ``args``: the launch arguments, a list (numpy arrays
    are copied afresh for every run, so each point starts from the same
    inputs) or a function ``args(config) -> list`` that builds them for a
    point's configuration (a module-level function, so Dask can ship it).
    ``check``: optional ``check(args, config) -> bool | (bool, message)``
    called with the arguments after the run (arrays hold the kernel's
    outputs); without it a run that does not fault passes.
    """

    name: str
    kernel: Kernel
    grid: object
    block: object
    args: object
    check: object = None
    shared_bytes: int = 0

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name:
            raise TypeError(f"KernelCase name must be a non-empty str, got {self.name!r}")
        if not isinstance(self.kernel, Kernel):
            raise TypeError(f"KernelCase {self.name!r}: kernel must be a warptlm.Kernel, got "
                            f"{type(self.kernel).__name__}")
        if not (callable(self.args) or isinstance(self.args, (list, tuple))):
            raise TypeError(f"KernelCase {self.name!r}: args must be a list or a function of the configuration")
        if self.check is not None and not callable(self.check):
            raise TypeError(f"KernelCase {self.name!r}: check must be a function (args, config) -> bool")

    def fingerprint(self):
        """What identifies this case's runs when a sweep resumes: the PTX, the
        entry, the geometry, the arguments (their bytes, or the function's
        name) and the checker's name."""
        h = hashlib.sha1()
        for part in (self.kernel.ptx, self.kernel.entry, repr(self.grid), repr(self.block),
                     str(self.shared_bytes), _name_of(self.check)):
            h.update(part.encode())
        if callable(self.args):
            h.update(_name_of(self.args).encode())
        else:
            for value in self.args:
                if isinstance(value, np.ndarray):
                    h.update(f"{value.dtype.str}{value.shape}".encode())
                    h.update(np.ascontiguousarray(value).tobytes())
                else:
                    h.update(repr(value).encode())
        return h.hexdigest()[:16]

    def arguments(self, config):
        """Fresh arguments for one run at ``config``."""
        values = self.args(dict(config)) if callable(self.args) else self.args
        if not isinstance(values, (list, tuple)):
            raise TypeError(f"KernelCase {self.name!r}: args(config) must return a list, got "
                            f"{type(values).__name__}")
        return [v.copy() if isinstance(v, np.ndarray) else v for v in values]

    def verdict(self, args, config):
        """(passed, message) from the checker after a run."""
        if self.check is None:
            return True, "no checker: ran without a fault"
        answer = self.check(args, dict(config))
        passed, message = answer if isinstance(answer, tuple) else (answer, "")
        return bool(passed), str(message) or ("check passed" if passed else "check failed")


def _name_of(function):
    if function is None:
        return ""
    return f"{getattr(function, '__module__', '')}.{getattr(function, '__qualname__', repr(function))}"
