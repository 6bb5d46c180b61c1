"""Run every simulation in its own child process.

SystemC elaborates once per process, and a child forked from a process that has
already simulated inherits the used kernel; a crashing configuration must not
take the caller down either. So simulations never run in the user's process.
Instead a *launcher* (``_launcher.py``), started fresh with ``python -I`` and
never simulating itself, forks one child per run. This module is the client:

* :func:`call` sends one request to an idle launcher (started on first use and
  kept for the next calls), waits for the outcome, and turns a child that died
  into :class:`SimulationCrash` and one past its deadline into
  :class:`SimulationTimeout`.
* Launchers are pooled, one per concurrent caller, so a sweep's worker threads
  each fork their own children.

The launcher is not started with multiprocessing's spawn or forkserver methods
because those re-import the user's ``__main__`` module in the child: a script
calling ``launch()`` at top level without a ``__main__`` guard would recurse.
"""

import atexit
import numbers
import os
import pickle
import select
import signal
import subprocess
import sys
import threading
import time

from . import _core
from ._launcher import read_frame, write_frame

_LAUNCHER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_launcher.py")


class SimulationCrash(RuntimeError):
    """The child process running a simulation died (a signal or a non-zero exit)."""

    def __init__(self, message, status=None, stderr=""):
        super().__init__(message)
        self.status = status  # negative: the signal number that ended it
        self.stderr = stderr


class SimulationTimeout(TimeoutError):
    """A simulation ran past its time limit and was killed."""


def _describe_status(code):
    if code < 0:
        try:
            return f"signal {signal.Signals(-code).name}"
        except ValueError:
            return f"signal {-code}"
    return f"exit status {code}"


def _crash(who, code, stderr):
    """SimulationCrash for a process that died with exit status ``code``."""
    tail = stderr.strip()[-2000:]
    return SimulationCrash(f"{who} died with {_describe_status(code)}" + (f"; its last output:\n{tail}" if tail else ""),
                           status=code, stderr=stderr)


def _outcome(payload, stderr):
    """The value of a pickled ("ok", value) outcome; raises an ("error", exc) one's."""
    if stderr:
        sys.stderr.write(stderr)
    status, value = pickle.loads(payload)
    if status == "error":
        raise value
    return value


class Launcher:
    """One launcher process and the pipes to it; used by one thread at a time."""

    def __init__(self):
        req_r, self._req_w = os.pipe()
        self._resp_r, resp_w = os.pipe()
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-I", _LAUNCHER, _core.__file__, str(req_r), str(resp_w)],
                pass_fds=(req_r, resp_w),
                stdin=subprocess.DEVNULL,
                start_new_session=True,  # Ctrl-C reaches the caller only; it kills the child
            )
        finally:
            os.close(req_r)
            os.close(resp_w)

    def _read_frame(self, deadline):
        """The next response frame; None when the deadline passed first."""
        if deadline is not None:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self._resp_r], [], [], max(left, 0.0))
            if not ready:
                return None
        data = read_frame(self._resp_r)
        if data is None:
            raise SimulationCrash("the warptlm launcher process exited unexpectedly")
        return data

    def call(self, function, kwargs, timeout=None, debug_crash=None, what="simulation"):
        """Run _core.<function>(**kwargs) in a fresh child; return its result."""
        write_frame(self._req_w, pickle.dumps((function, kwargs, debug_crash), protocol=5))
        kind, pid = pickle.loads(self._read_frame(None))
        assert kind == "started"
        with _active_lock:
            _active.add(pid)
        deadline = None if timeout is None else time.monotonic() + timeout
        killed = False
        try:
            header = self._read_frame(deadline)
            if header is None:  # past the deadline: kill the child, collect its "died"
                killed = True
                _kill(pid)
                header = self._read_frame(None)
            header = pickle.loads(header)
        except BaseException:
            # Interrupted (KeyboardInterrupt) or broken: the protocol state is
            # unknown, so kill the child and retire this launcher.
            _kill(pid)
            self.close()
            raise
        finally:
            with _active_lock:
                _active.discard(pid)
        if header[0] == "died":
            code, stderr = header[1], header[2]
            if killed:
                raise SimulationTimeout(f"{what}: simulation killed after its time limit of {timeout:g} s")
            raise _crash("the simulation process", code, stderr)
        _, stderr = header
        return _outcome(self._read_frame(None), stderr)

    def usable(self):
        return self._req_w >= 0 and self.process.poll() is None

    def close(self):
        for fd in (self._req_w, self._resp_r):
            try:
                os.close(fd)
            except OSError:
                pass
        self._req_w = self._resp_r = -1
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class SessionProcess:
    """A process of its own serving one _core.Session (``_launcher.py --session``).

    Started fresh (SystemC elaborates once per process), it keeps the
    session's device between calls. A call that outlives its timeout kills the
    process (SimulationTimeout); a process that dies is a SimulationCrash with
    the tail of its error output. Either way the session is over: later calls
    raise SimulationCrash naming what ended it.
    """

    def __init__(self):
        req_r, self._req_w = os.pipe()
        self._resp_r, resp_w = os.pipe()
        self._stderr = os.memfd_create("warptlm-session-stderr")
        self._stderr_seen = 0
        self.ended = None  # why the process is gone, once it is
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-I", _LAUNCHER, _core.__file__, str(req_r), str(resp_w), "--session"],
                pass_fds=(req_r, resp_w),
                stdin=subprocess.DEVNULL,
                stderr=self._stderr,
                start_new_session=True,
            )
        finally:
            os.close(req_r)
            os.close(resp_w)
        with _active_lock:
            _active.add(self.process.pid)

    def _new_stderr(self):
        size = os.fstat(self._stderr).st_size
        text = os.pread(self._stderr, size - self._stderr_seen, self._stderr_seen) if size > self._stderr_seen else b""
        self._stderr_seen = size
        return text.decode("utf-8", "replace")

    def call(self, method, kwargs, timeout=None, what="session"):
        """``session.<method>(**kwargs)`` in the process; its result."""
        if self.ended is not None:
            raise SimulationCrash(f"{what}: the session has ended ({self.ended})")
        timeout = check_timeout(timeout)
        try:
            write_frame(self._req_w, pickle.dumps((method, kwargs), protocol=5))
            ready = True
            if timeout is not None:
                ready, _, _ = select.select([self._resp_r], [], [], timeout)
            data = read_frame(self._resp_r) if ready else None
        except (BrokenPipeError, EOFError):
            data = None
            ready = True
        except BaseException:  # interrupted: the protocol state is unknown
            self.close(kill=True)
            self.ended = "interrupted during a call"
            raise
        stderr = self._new_stderr()
        if data is None:
            if not ready:
                self.close(kill=True)
                self.ended = f"killed after the time limit of {timeout:g} s"
                raise SimulationTimeout(f"{what}: simulation killed after its time limit of {timeout:g} s")
            code = self.process.wait()
            crash = _crash(f"{what}: the session process", code, stderr or self._all_stderr())
            self.close()
            self.ended = f"its process died with {_describe_status(code)}"
            raise crash
        return _outcome(data, stderr)

    def _all_stderr(self):
        size = os.fstat(self._stderr).st_size
        return os.pread(self._stderr, size, 0).decode("utf-8", "replace") if size else ""

    def close(self, kill=False):
        """End the process (it exits at end of file on its pipe)."""
        for fd in (self._req_w, self._resp_r, self._stderr):
            if fd >= 0:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._req_w = self._resp_r = self._stderr = -1
        if kill:
            _kill(self.process.pid)
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        with _active_lock:
            _active.discard(self.process.pid)
        if self.ended is None:
            self.ended = "closed"


def _kill(pid):
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


_idle = []
_idle_lock = threading.Lock()
_active = set()  # pids of the children running now, for kill_active()
_active_lock = threading.Lock()


def kill_active():
    """Kill every simulation child running now (an interrupted sweep)."""
    with _active_lock:
        pids = list(_active)
    for pid in pids:
        _kill(pid)


def check_timeout(timeout):
    """None, or a positive number of seconds; anything else is a ValueError."""
    if timeout is None:
        return None
    if isinstance(timeout, bool) or not isinstance(timeout, numbers.Real) or not timeout > 0:
        raise ValueError(f"timeout must be a positive number of seconds (or None), got {timeout!r}")
    return float(timeout)


def call(function, kwargs, timeout=None, debug_crash=None, what="simulation"):
    """Run ``_core.<function>(**kwargs)`` isolated in a child process.

    Thread-safe: concurrent callers get launchers of their own. Raises what the
    function raised, :class:`SimulationCrash` or :class:`SimulationTimeout`
    (naming ``what`` ran out of time).
    """
    timeout = check_timeout(timeout)
    with _idle_lock:
        launcher = _idle.pop() if _idle else None
    if launcher is None or not launcher.usable():
        launcher = Launcher()
    try:
        return launcher.call(function, kwargs, timeout, debug_crash, what)
    finally:
        # A launcher outlives its children's crashes; one that was retired
        # (interrupted mid-request) or died is dropped.
        if launcher.usable():
            _release(launcher)


def _release(launcher):
    with _idle_lock:
        _idle.append(launcher)


@atexit.register
def shutdown():
    """Close every idle launcher (they exit at end of file on their pipe)."""
    with _idle_lock:
        launchers = list(_idle)
        _idle.clear()
    for launcher in launchers:
        launcher.close()


def debug_crash_for(config, extra=()):
    """The crash kind WARPTLM_DEBUG_CRASH asks for this run, or None.

    A testing hook: ``WARPTLM_DEBUG_CRASH="seed=13"`` (or ``"seed=13:segv"``)
    makes every run whose configuration has seed 13 crash its child with a real
    abort() (or SIGSEGV) in native code; keys may also name ``scenario``.
    """
    spec = os.environ.get("WARPTLM_DEBUG_CRASH")
    if not spec:
        return None
    match, _, kind = spec.partition(":")
    values = dict(config)
    values.update(extra)
    for term in match.split(","):
        key, _, want = term.partition("=")
        if str(values.get(key.strip())) != want.strip():
            return None
    return kind or "abort"
