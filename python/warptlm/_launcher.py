"""The clean launcher: a process that never simulates and forks one child per run.

Started by :mod:`warptlm.isolation` as ``python -I _launcher.py CORE REQ_FD RESP_FD``.
It loads the native extension (from its file, without importing the package,
so it needs neither numpy nor pandas and starts in a few milliseconds), then
serves requests read from REQ_FD:

    request frame (pickled (function, kwargs, debug_crash)) ->
      fork a child; the child calls ``_core.<function>(**kwargs)``, pickles
      ("ok", result) or ("error", exception) into a pipe and _exits.
    <- ("started", pid)                    as soon as the child exists
    <- ("done", stderr) + payload frame    when it exited normally
    <- ("died", exit status or -signal, stderr)  otherwise

Every simulation thus runs in a child of a process that has never run one
(SystemC elaborates once per process), and a crash (SIGSEGV, abort) only ends
that child. The launcher exits when REQ_FD reaches end of file, i.e. when its
parent closes the pipe or dies.

Started as ``_launcher.py CORE REQ_FD RESP_FD --session`` it serves one
launch session (warptlm.session) in its own process instead, without forking:

    request frame (pickled (method, kwargs)) ->
      "__init__" makes the _core.Session, anything else calls its method
    <- pickled ("ok", result) or ("error", exception)
"""

import importlib.util
import os
import pickle
import struct
import sys

_HEADER = struct.Struct("<Q")


def read_exact(fd, n):
    """Read exactly n bytes from fd; None on end of file before the first byte."""
    chunks, got = [], 0
    while got < n:
        chunk = os.read(fd, min(n - got, 1 << 20))
        if not chunk:
            if got == 0:
                return None
            raise EOFError("pipe closed in the middle of a frame")
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def read_frame(fd):
    """A length-prefixed frame, or None at end of file."""
    header = read_exact(fd, _HEADER.size)
    if header is None:
        return None
    (size,) = _HEADER.unpack(header)
    data = read_exact(fd, size) if size else b""
    if data is None:
        raise EOFError("pipe closed in the middle of a frame")
    return data


def write_all(fd, data):
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def write_frame(fd, data):
    if len(data) < 65536:  # one write for the small frames of every run
        write_all(fd, _HEADER.pack(len(data)) + data)
    else:
        write_all(fd, _HEADER.pack(len(data)))
        write_all(fd, data)


def load_core(path):
    """Import the extension as warptlm._core from its file."""
    spec = importlib.util.spec_from_file_location("warptlm._core", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["warptlm._core"] = module  # so pickled exceptions name their class
    spec.loader.exec_module(module)
    return module


def _child(core, request, result_fd, stderr_fd):
    """Body of the forked child: run, send the pickled outcome, _exit."""
    os.dup2(stderr_fd, 2)
    try:
        function, kwargs, debug_crash = pickle.loads(request)
        if debug_crash:
            core.debug_crash(debug_crash)
        outcome = ("ok", getattr(core, function)(**kwargs))
    except BaseException as exc:  # everything goes back to the caller
        outcome = ("error", exc)
    write_all(result_fd, _pickled(outcome))
    sys.stdout.flush()
    os._exit(0)


def _read_memfd(fd):
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    while True:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks).decode("utf-8", "replace")


def serve(core, req_fd, resp_fd):
    while True:
        request = read_frame(req_fd)
        if request is None:
            return
        result_r, result_w = os.pipe()
        stderr_fd = os.memfd_create("warptlm-child-stderr")
        pid = os.fork()
        if pid == 0:
            os.close(result_r)
            os.close(req_fd)
            os.close(resp_fd)
            _child(core, request, result_w, stderr_fd)
        os.close(result_w)
        write_frame(resp_fd, pickle.dumps(("started", pid)))
        chunks = []
        while True:
            chunk = os.read(result_r, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
        os.close(result_r)
        _, status = os.waitpid(pid, 0)
        stderr = _read_memfd(stderr_fd)
        os.close(stderr_fd)
        payload = b"".join(chunks)
        code = os.waitstatus_to_exitcode(status)
        if code == 0 and payload:
            write_frame(resp_fd, pickle.dumps(("done", stderr)))
            write_frame(resp_fd, payload)
        else:
            write_frame(resp_fd, pickle.dumps(("died", code, stderr)))


def _pickled(outcome):
    try:
        return pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # an unpicklable exception: keep its text
        return pickle.dumps(("error", RuntimeError(f"{type(outcome[1]).__name__}: {outcome[1]}")))


def serve_session(core, req_fd, resp_fd):
    session = None
    while True:
        request = read_frame(req_fd)
        if request is None:
            return
        try:
            method, kwargs = pickle.loads(request)
            if method == "__init__":
                session = core.Session(**kwargs)
                outcome = ("ok", None)
            else:
                outcome = ("ok", getattr(session, method)(**kwargs))
        except BaseException as exc:  # everything goes back to the caller
            outcome = ("error", exc)
        sys.stdout.flush()
        write_frame(resp_fd, _pickled(outcome))


def main(argv):
    core = load_core(argv[1])
    try:
        if argv[4:] == ["--session"]:
            serve_session(core, int(argv[2]), int(argv[3]))
        else:
            serve(core, int(argv[2]), int(argv[3]))
    except (BrokenPipeError, EOFError):
        pass  # the parent went away: nothing left to serve


if __name__ == "__main__":
    main(sys.argv)
