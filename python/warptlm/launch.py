"""Launching kernels: argument checking, the isolated run, and its Result.

numpy arrays among the arguments become device buffers (exactly their bytes;
any access outside them is a fault) and are copied back in place after the run.
A warptlm.Texture or warptlm.Surface passes a texture or surface object over
its array's bytes (one buffer with any other argument naming the same array).
Scalars are checked against the kernel's parameter types: a numpy scalar must
have a matching dtype kind and size; a Python int or float is converted with a
range check.
"""

import time

import numpy as np

from . import _core, isolation
from .records import outdir_paths
from .textures import Surface, Texture
from .result import KernelError, Result, check_compactability, check_mode, output_path, raise_fault, result_from

__all__ = ["launch", "Result", "KernelError"]


def _dim3(name, value):
    dims = (value,) if isinstance(value, (int, np.integer)) else tuple(value)
    if not 1 <= len(dims) <= 3 or not all(isinstance(d, (int, np.integer)) and not isinstance(d, bool)
                                          for d in dims):
        raise TypeError(f"{name} must be an int or a tuple of 1 to 3 ints, got {value!r}")
    if any(d <= 0 or d >= 2**32 for d in dims):
        raise ValueError(f"{name} dimensions must be in [1, 2^32), got {value!r}")
    return tuple(int(d) for d in dims) + (1,) * (3 - len(dims))


def _int_range(bits):
    """Any value representable in ``bits`` bits, as CUDA's C conversions allow:
    a C ``int`` parameter is declared .u32 by clang, and -1 must still pass."""
    return -(2 ** (bits - 1)), 2**bits - 1


def _float_dtype(bits):
    return {16: np.float16, 32: np.float32, 64: np.float64}[bits]


def scalar_bits(param, value, where):
    """The zero-extended bit pattern of ``value`` for a scalar parameter."""
    bits = param.size * 8
    is_float = param.type[0] == "f"
    if param.type == "pred" or param.size not in (1, 2, 4, 8) or int(param.type[1:]) != bits:
        raise TypeError(f"{where} is a {param.size}-byte .{param.type} parameter, which takes no scalar")
    if isinstance(value, np.generic):
        kind = value.dtype.kind
        if kind not in "biuf" or value.dtype.itemsize != param.size or (kind == "f") != is_float:
            raise TypeError(f"{where} is .{param.type}; a numpy {value.dtype} does not match it")
        return int(np.array(value).view(f"u{param.size}")[()])
    if isinstance(value, (bool, int)):
        if is_float:
            value = float(value)
        else:
            lo, hi = _int_range(bits)
            if not lo <= value <= hi:
                raise OverflowError(f"{where} is .{param.type}; {value} is outside [{lo}, {hi}]")
            return value & (2**bits - 1)
    if isinstance(value, float):
        if not is_float:
            raise TypeError(f"{where} is .{param.type}, an integer; got the float {value!r}")
        dtype = _float_dtype(bits)
        if np.isfinite(value) and abs(value) > np.finfo(dtype).max:
            raise OverflowError(f"{where} is .{param.type}; {value!r} is outside its range")
        return int(np.array(value, dtype=dtype).view(f"u{param.size}")[()])
    raise TypeError(f"{where} is .{param.type}; cannot pass a {type(value).__name__}")


def same_buffer(a, b):
    """Two arrays that are one device buffer: the same object, or views of the
    same bytes with the same layout (``a`` and ``a[:]``)."""
    if a is b:
        return True
    ia, ib = a.__array_interface__, b.__array_interface__
    return (ia["data"] == ib["data"] and a.dtype == b.dtype and a.shape == b.shape
            and a.strides == b.strides)


def device_bytes(array, where):
    """The bytes a device buffer starts with: native byte order, C order."""
    if array.dtype.hasobject:
        raise TypeError(f"{where}: a numpy {array.dtype} array holds Python objects, not data a kernel can read")
    if not array.dtype.isnative:  # big-endian data is converted, never reinterpreted
        array = array.astype(array.dtype.newbyteorder("="))
    return np.ascontiguousarray(array).tobytes()


def marshal_args(kernel, args, place=None):
    """(native argument list, [(buffer index, array)] to copy back).

    Buffers are numbered in order of first appearance; an array passed for
    several parameters is one buffer (as one device pointer in CUDA), and
    distinct arrays that share memory are refused (their copies would not
    alias on the device as they do on the host). A buffer's payload is its
    bytes, or with ``place`` (a session's), ``place(array, name, where)``: the
    device address of the array's resident copy (where aliasing works, so
    place() decides which overlaps it takes).
    """
    args = list(args)
    if len(args) != len(kernel.params):
        raise TypeError(f"kernel '{kernel.entry}' takes {len(kernel.params)} arguments "
                        f"({', '.join(p.name for p in kernel.params)}), got {len(args)}")
    native, arrays = [], []  # arrays[i]: (buffer index i, array, first argument position)
    for i, (param, value) in enumerate(zip(kernel.params, args)):
        where = f"kernel '{kernel.entry}' argument {i} ('{param.name}')"
        if isinstance(value, (Texture, Surface)):
            if param.size != 8 or param.type[0] == "f":
                raise TypeError(f"{where} is .{param.type}, not a 64-bit handle; a {value.kind} object "
                                "cannot be passed")
            array = value.array
            index = next((b for b, (_, seen, _) in enumerate(arrays) if same_buffer(seen, array)), None)
            if index is None:
                for _, seen, first in arrays if place is None else ():  # a session's place() decides
                    if np.shares_memory(seen, array):
                        raise ValueError(f"{where}: the {value.kind}'s array overlaps the array of argument "
                                         f"{first} in memory; pass the same array for both, or arrays that "
                                         "do not overlap")
                arrays.append((len(arrays), array, i))
                payload = device_bytes(array, where) if place is None else ("device", place(array, param.name, where))
                native.append(("image", param.name, payload, value.desc))
            else:
                native.append(("image", param.name, index, value.desc))
            continue
        if isinstance(value, np.ndarray):
            if param.size != 8 or param.type[0] == "f":
                raise TypeError(f"{where} is .{param.type}, not a 64-bit pointer; an array cannot be passed")
            index = next((b for b, (_, seen, _) in enumerate(arrays) if same_buffer(seen, value)), None)
            if index is None:
                for _, seen, first in arrays if place is None else ():  # a session's place() decides
                    if np.shares_memory(seen, value):
                        raise ValueError(f"{where} overlaps the array of argument {first} in memory; pass the "
                                         "same array for both, or arrays that do not overlap")
                index = len(arrays)
                arrays.append((index, value, i))
                native.append(("buffer", param.name,
                               device_bytes(value, where) if place is None else place(value, param.name, where)))
            else:
                native.append(("same_buffer", param.name, index))
        else:
            native.append(("scalar", param.type, scalar_bits(param, value, where)))
    return native, [(index, array) for index, array, _ in arrays]


def check_geometry(grid, block, shared_bytes, cooperative):
    """(grid, block) as 3-tuples; TypeError/ValueError for a bad launch shape."""
    grid3, block3 = _dim3("grid", grid), _dim3("block", block)
    if not isinstance(shared_bytes, (int, np.integer)) or not 0 <= shared_bytes < 2**32:
        raise ValueError(f"shared_bytes must be an int in [0, 2^32), got {shared_bytes!r}")
    if not isinstance(cooperative, bool):
        raise TypeError(f"cooperative must be True or False, got {cooperative!r}")
    return grid3, block3


def copy_back(arrays, buffers):
    """Writes each device buffer back into the caller's array, in place."""
    for index, array in arrays:
        if array.flags.writeable:
            data = np.frombuffer(buffers[index], dtype=array.dtype.newbyteorder("="))
            array[...] = data.reshape(array.shape)


def launch(platform, kernel, grid, block, args, shared_bytes=0, mode="functional", trace=False, timeout=None,
           timeline=None, vcd=None, compactability=False, outdir=None, cooperative=False):
    """Run ``kernel`` on ``platform`` in an isolated child process.

    Returns a :class:`Result`. Raises KernelError for a fault in the kernel,
    TypeError/OverflowError for arguments that do not fit the parameters,
    ``timeline`` (timing mode): a path where the warp timeline is written as
    Chrome trace-event JSON (open it in Perfetto); ``vcd``: a path for a VCD of
    the GPU's top-level activity. ``compactability`` (functional mode): also
    run the SLP paper's compactability analysis (Result.compactability).
    ``outdir``: a folder that receives the run's files, gem5-style: stats.json
    (the run record), stats.txt, config.json, and in timing mode
    timeline.json and top.vcd unless ``timeline``/``vcd`` name other paths.
    ``timeout``: seconds (a positive number) before SimulationTimeout.
    ``cooperative``: a cooperative launch (cudaLaunchCooperativeKernel): every
    CTA is resident at once, or ValueError, and cooperative groups'
    ``grid.sync()`` works (docs/cooperative-launch.md).
    ValueError for a bad launch,
    warptlm.SimulationCrash if the model crashed and SimulationTimeout past
    ``timeout`` seconds.
    """
    check_mode(mode)
    check_compactability(compactability, mode)
    started = time.perf_counter()
    grid3, block3 = check_geometry(grid, block, shared_bytes, cooperative)
    native, arrays = marshal_args(kernel, args)
    config = platform.config
    timeline, vcd = outdir_paths(outdir, mode, timeline, vcd)
    out = isolation.call(
        "run_kernel",
        dict(ptx=kernel.ptx, source_name=kernel.source_name, entry=kernel.entry,
             config_json=platform.config_json(), grid=grid3, block=block3, shared_bytes=int(shared_bytes),
             args=native, trace=bool(trace), mode=mode, timeline_path=output_path("timeline", timeline, mode),
             vcd_path=output_path("vcd", vcd, mode), compactability=bool(compactability),
             cooperative=cooperative),
        timeout=timeout, debug_crash=isolation.debug_crash_for(config, {"kernel": kernel.entry}),
        what=f"kernel '{kernel.entry}' ({mode}, grid {grid3}, block {block3})")
    if out["fault"] is not None:
        raise_fault(out["fault"])
    copy_back(arrays, out["buffers"])
    return result_from(out, config, started, "launch", mode, outdir)
