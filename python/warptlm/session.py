"""Launch sessions: several launches on one device, as a CUDA program makes them.

    with warptlm.Platform("fermi").session(mode="timing") as s:
        s.launch(k1, grid, block, [a, out, n])   # a and out go to device memory once
        while True:
            s.launch(k2, grid, block, [out, flag])
            if not s.read(flag)[0]:            # the host's check between launches
                break
    # leaving the block copies every buffer back into its array

A session runs in one process of its own (isolation as for every run), which
parses each PTX module once and, in timing mode, elaborates the SystemC model
once: a launch then costs what the kernel costs. Arrays passed to launches
become device buffers the first time they are seen and stay there (the same
array is the same buffer in every launch); `read` and `write` are cudaMemcpy.
Statistics count over the session's launches, as the GPU's counters do
(docs/launch-sessions.md).
"""

import time

import numpy as np

from . import isolation
from .launch import device_bytes, same_buffer, check_geometry, marshal_args
from .result import check_mode, raise_fault, result_from

__all__ = ["Session", "launch_sequence"]


class Session:
    """A device that keeps its memory, programs and (timing mode) its
    elaborated GPU from launch to launch. Use it as a context manager, or call
    :meth:`close`. ``timeout``: seconds each call may take before the session
    process is killed (SimulationTimeout); None waits for ever."""

    def __init__(self, platform, mode="functional", timeout=None):
        check_mode(mode)
        self.platform, self.mode = platform, mode
        self._config = platform.config
        self._timeout = isolation.check_timeout(timeout)
        self._resident = []  # [array, address], in order of arrival
        self._handles = {}  # (ptx, source name) -> program handle
        self._process = isolation.SessionProcess()
        try:
            self._call("__init__", config_json=platform.config_json(), mode=mode)
        except BaseException:
            self._process.close(kill=True)
            raise

    def _call(self, method, what="session", **kwargs):
        return self._process.call(method, kwargs, timeout=self._timeout, what=what)

    # -- device memory -----------------------------------------------------

    def _find(self, array):
        for entry in self._resident:
            if same_buffer(entry[0], array):
                return entry
        return None

    def _address(self, array, where):
        """The device address of ``array``'s bytes when they are in a buffer of
        the session (the buffer's own array, or a contiguous view inside it, as
        CUDA's ``d_ptr + n``); None when they are in none. ValueError for an
        array that overlaps a buffer otherwise."""
        entry = self._find(array)
        if entry is not None:
            return entry[1]
        for seen, address in self._resident:
            if np.shares_memory(seen, array):
                offset = array.__array_interface__["data"][0] - seen.__array_interface__["data"][0]
                if (array.flags.c_contiguous and seen.flags.c_contiguous and array.dtype.isnative
                        and 0 <= offset and offset + array.nbytes <= seen.nbytes):
                    return address + offset
                raise ValueError(f"{where} overlaps an array already in this session's device memory "
                                 "without being a contiguous part of it; pass that array (or a contiguous "
                                 "slice of it), or arrays that do not overlap")
        return None

    def _place(self, array, name, where):
        """The device address of ``array``'s buffer, uploading it at first sight."""
        address = self._address(array, where)
        if address is not None:
            return address
        address = self._call("upload", data=device_bytes(array, where), name=name)
        self._resident.append([array, address])
        return address

    def _located(self, array, what):
        if not isinstance(array, np.ndarray):
            raise TypeError(f"{what} takes a numpy array, got {type(array).__name__}")
        address = self._address(array, what)
        if address is None:
            raise ValueError(f"{what}: the array is not in this session's device memory "
                             "(pass it to a launch or to write() first)")
        return address

    def write(self, array):
        """Copy ``array``'s values to the device (cudaMemcpy host to device):
        to its buffer, or where it lies inside one; a new buffer otherwise."""
        if not isinstance(array, np.ndarray):
            raise TypeError(f"write takes a numpy array, got {type(array).__name__}")
        address = self._address(array, "write")
        if address is None:
            self._place(array, "array", "write")
        else:
            self._call("write", address=address, data=device_bytes(array, "write"))
        return array

    def read(self, array):
        """Copy the device's values of ``array`` (its buffer, or the part of
        one it lies in) into it, in place (cudaMemcpy device to host); returns
        the array."""
        address = self._located(array, "read")
        if not array.flags.writeable:
            raise ValueError("read: the array is read-only; the device's values cannot be copied into it")
        data = self._call("read", address=address, size=array.nbytes)
        array[...] = np.frombuffer(data, dtype=array.dtype.newbyteorder("=")).reshape(array.shape)
        return array

    def free(self, array):
        """Release the device buffer of ``array`` (cudaFree); later launches
        that pass it upload it again."""
        if not isinstance(array, np.ndarray):
            raise TypeError(f"free takes a numpy array, got {type(array).__name__}")
        entry = self._find(array)
        if entry is None:
            raise ValueError("free: the array is not the array of a device buffer of this session "
                             "(a part of one cannot be freed)")
        self._call("release", address=entry[1])
        self._resident.remove(entry)

    # -- launches ----------------------------------------------------------

    def launch(self, kernel, grid, block, args, shared_bytes=0, cooperative=False, trace=False):
        """One launch on the session's device; returns a :class:`Result`
        whose statistics count over the session so far. Arrays stay in device
        memory (no copy back: use :meth:`read`). Raises KernelError for a
        fault, after which the session refuses further launches (a CUDA
        context does the same); ValueError for a bad launch, which leaves it
        usable."""
        started = time.perf_counter()
        grid3, block3 = check_geometry(grid, block, shared_bytes, cooperative)
        key = (kernel.ptx, kernel.source_name)
        handle = self._handles.get(key)
        if handle is None:
            handle = self._handles[key] = self._call("load", ptx=kernel.ptx, source_name=kernel.source_name)
        native, _ = marshal_args(kernel, args, place=self._place)
        what = f"kernel '{kernel.entry}' ({self.mode}, grid {grid3}, block {block3})"
        out = self._call("launch", what=what, handle=handle, entry=kernel.entry, grid=grid3, block=block3,
                         shared_bytes=int(shared_bytes), args=native, cooperative=cooperative,
                         trace=bool(trace))
        if out["fault"] is not None:
            raise_fault(out["fault"])
        return result_from(out, self._config, started, "launch", self.mode)

    @property
    def stats(self):
        """The statistics over every launch so far (a dict)."""
        return self._call("stats")

    @property
    def launches(self):
        """How many launches ran (a faulted one included)."""
        return self._call("launches")

    # -- lifetime ----------------------------------------------------------

    def close(self, copy_back=True):
        """Copy every buffer back into its (writeable) array unless
        ``copy_back`` is False, then end the session's process."""
        try:
            if copy_back and self._process.ended is None:
                for array, _ in self._resident:
                    if array.flags.writeable:
                        self.read(array)
        finally:
            self._resident = []
            if self._process.ended is None:
                self._process.close()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        # After an exception the device's state is whatever it was; the
        # arrays keep their host values.
        self.close(copy_back=exc_type is None)
        return False

    def __repr__(self):
        state = "open" if self._process.ended is None else self._process.ended
        return f"Session({self.platform!r}, mode={self.mode!r}, {state})"


def _step(item, index):
    """(kernel, grid, block, args, options) of one entry of a launch list."""
    if isinstance(item, dict):
        unknown = set(item) - {"kernel", "grid", "block", "args", "shared_bytes", "cooperative"}
        if unknown:
            raise TypeError(f"launches[{index}]: unknown key(s) {sorted(unknown)}")
        try:
            return item["kernel"], item.get("grid", 1), item["block"], item.get("args", []), \
                dict(shared_bytes=item.get("shared_bytes", 0), cooperative=item.get("cooperative", False))
        except KeyError as missing:
            raise TypeError(f"launches[{index}] lacks {missing}") from None
    if isinstance(item, (tuple, list)) and len(item) == 4:
        return (*item, {})
    raise TypeError(f"launches[{index}] must be (kernel, grid, block, args) or a dict with kernel, grid, "
                    f"block, args (and shared_bytes, cooperative); got {item!r}")


def launch_sequence(platform, launches, mode="functional", between=None, timeout=None):
    """Run a list of launches in one session; returns their Results.

    Each entry is ``(kernel, grid, block, args)`` or a dict with those keys
    (and ``shared_bytes``, ``cooperative``). An array is one device buffer for
    the whole sequence, copied back into it at the end. ``between(index,
    result, session)``, when given, runs after each launch on the host: it may
    read and write buffers through ``session``, and returning False ends the
    sequence there.
    """
    steps = [_step(item, i) for i, item in enumerate(launches)]
    results = []
    with Session(platform, mode, timeout) as session:
        for index, (kernel, grid, block, args, options) in enumerate(steps):
            result = session.launch(kernel, grid, block, args, **options)
            results.append(result)
            if between is not None and between(index, result, session) is False:
                break
    return results
