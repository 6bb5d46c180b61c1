"""Launch sessions: several launches on one device, buffers staying in device
memory, host code between launches, statistics over the session."""

import numpy as np
import pytest

import warptlm
from conftest import DIVERGE_PTX

MODES = ["functional", "timing"]


def _xy(n=300):
    x = np.arange(n, dtype=np.float32)
    return x, np.ones(n, dtype=np.float32)


@pytest.mark.parametrize("mode", MODES)
def test_buffers_stay_on_the_device(small, axpy, mode):
    x, y = _xy()
    with small.session(mode=mode) as s:
        results = [s.launch(axpy, 3, 128, [x, y, np.float32(2.0), 300]) for _ in range(3)]
        assert (y == 1).all()  # no copy back during the session
        assert s.launches == 3
        np.testing.assert_array_equal(s.read(y), 1 + 3 * 2 * x)
    np.testing.assert_array_equal(y, 1 + 3 * 2 * x)
    one = results[0].stats["warp_instructions"]
    assert one > 0
    assert [r.stats["warp_instructions"] for r in results] == [one, 2 * one, 3 * one]
    if mode == "timing":
        assert [r.stats["launches"] for r in results] == [1, 2, 3]
        assert results[2].stats["busy_cycles"] > 2 * results[2].stats["cycles"] > 0


def test_modes_agree_and_first_launch_is_a_lone_run(small, axpy):
    counts = {}
    for mode in MODES:
        x, y = _xy()
        lone = small.launch(axpy, 3, 128, [x, y.copy(), np.float32(2.0), 300], mode=mode)
        with small.session(mode=mode) as s:
            first = s.launch(axpy, 3, 128, [x, y, np.float32(2.0), 300])
        assert first.stats == lone.stats
        counts[mode] = first.stats["warp_instructions"]
    assert counts["functional"] == counts["timing"]


@pytest.mark.parametrize("mode", MODES)
def test_host_code_between_launches(small, axpy, mode):
    x, y = _xy(64)
    seen = []

    def between(index, result, session):
        seen.append(session.read(y)[1])
        x[:] = index + 1  # the host changes an input; write() sends it
        session.write(x)
        return index < 2  # stop after the third launch

    steps = [(axpy, 1, 64, [x, y, np.float32(1.0), 64])] * 5
    results = small.launch_sequence(steps, mode=mode, between=between)
    assert len(results) == 3
    # y[1] = 1 + x[1] (=1) -> then + 1 -> then + 2
    assert seen == [2.0, 3.0, 5.0]
    assert y[1] == 5.0  # copied back when the sequence ended


@pytest.mark.parametrize("mode", MODES)
def test_a_slice_is_a_pointer_into_its_buffer(small, axpy, mode):
    x, y = _xy(96)
    with small.session(mode=mode) as s:
        s.launch(axpy, 1, 96, [x, y, np.float32(1.0), 96])
        s.launch(axpy, 1, 32, [x[64:], y[64:], np.float32(1.0), 32])  # d_x + 64, d_y + 64
        s.launch(axpy, 1, 32, [x, x[32:], np.float32(1.0), 32])  # aliasing, as on a GPU
        np.testing.assert_array_equal(s.read(y[60:68]), 1 + np.array([1, 1, 1, 1, 2, 2, 2, 2]) * x[60:68])
        x[:4] = 100
        s.write(x[:4])
        assert s.read(x)[:4].tolist() == [100] * 4
        with pytest.raises(ValueError, match="a part of one cannot be freed"):
            s.free(x[32:])
    assert y[70] == 1 + 2 * 70 and x[40] == 40 + 8  # x[32:64] += x[0:32]
    with pytest.raises(ValueError, match="overlaps the array of argument 0"):  # a lone launch copies: refused
        small.launch(axpy, 1, 32, [x, x[32:], np.float32(1.0), 32])


def test_sequence_entries(small, axpy):
    x, y = _xy(64)
    steps = [dict(kernel=axpy, grid=1, block=64, args=[x, y, np.float32(1.0), 64]),
             (axpy, (1, 1), (64,), [x, y, np.float32(1.0), 64])]
    assert len(small.launch_sequence(steps)) == 2
    assert y[5] == 11.0
    with pytest.raises(TypeError, match=r"launches\[0\] lacks 'block'"):
        small.launch_sequence([dict(kernel=axpy, args=[])])
    with pytest.raises(TypeError, match=r"launches\[0\]: unknown key\(s\) \['blocks'\]"):
        small.launch_sequence([dict(kernel=axpy, block=1, blocks=2)])
    with pytest.raises(TypeError, match=r"launches\[1\] must be"):
        small.launch_sequence([steps[0], (axpy, 1)])


@pytest.mark.parametrize("mode", MODES)
def test_a_fault_ends_the_session_a_bad_launch_does_not(small, axpy, diverge, mode):
    x, y = _xy(64)
    with small.session(mode=mode) as s:
        with pytest.raises(TypeError, match="takes 4 arguments"):
            s.launch(axpy, 1, 64, [x, y])
        s.launch(axpy, 1, 64, [x, y, np.float32(1.0), 64])
        short = np.zeros(10, np.int32)  # diverge writes 64 ints
        with pytest.raises(warptlm.KernelError, match="out of bounds|past the end"):
            s.launch(diverge, 1, 64, [short])
        with pytest.raises(ValueError, match="unusable after the kernel fault"):
            s.launch(axpy, 1, 64, [x, y, np.float32(1.0), 64])
        assert s.read(y)[3] == 4.0  # memory stays readable


def test_session_errors(small, axpy):
    x, y = _xy(64)
    s = small.session()
    with pytest.raises(ValueError, match="not in this session's device memory"):
        s.read(x)
    s.launch(axpy, 1, 64, [x, y, np.float32(1.0), 64])
    with pytest.raises(ValueError, match="overlaps an array already in this session's device memory without"):
        s.launch(axpy, 1, 32, [x[::2], y, np.float32(1.0), 32])
    s.free(x)
    with pytest.raises(ValueError, match="not in this session's device memory"):
        s.read(x)
    s.close()
    assert y[0] == 1.0  # x[0] = 0
    with pytest.raises(warptlm.SimulationCrash, match="the session has ended \\(closed\\)"):
        s.launch(axpy, 1, 64, [x, y, np.float32(1.0), 64])
    with pytest.raises(ValueError, match="mode must be"):
        small.session(mode="fast")
    with pytest.raises(ValueError, match="warp_size"):
        warptlm.Platform("small", warp_size=3).session()


BUMP_PTX = """.version 7.0
.target sm_70
.address_size 64
.global .u32 calls;
.visible .entry bump(.param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  atom.global.add.u32 %r2, [calls], 1;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd2, %rd1, %rd2;
  st.global.u32 [%rd2], %r2;
  ret;
}
"""


@pytest.mark.parametrize("mode", MODES)
def test_global_variables_keep_their_values(small, mode):
    bump = warptlm.Kernel(BUMP_PTX, "bump")
    out = np.zeros(32, np.uint32)
    with small.session(mode=mode) as s:
        s.launch(bump, 1, 32, [out])
        s.launch(warptlm.Kernel(BUMP_PTX, "bump"), 1, 32, [out])  # the same module: loaded once
    assert sorted(out) == list(range(32, 64))


SPIN_PTX = """.version 7.0
.target sm_70
.address_size 64
.visible .entry spin()
{
LOOP:
  bra.uni LOOP;
}
"""


def test_a_crash_or_a_time_limit_ends_only_the_session(small, axpy):
    import os
    import signal

    x, y = _xy(64)
    s = small.session()
    s.launch(axpy, 1, 64, [x, y, np.float32(1.0), 64])
    os.kill(s._process.process.pid, signal.SIGKILL)  # as a crash in the model would end it
    with pytest.raises(warptlm.SimulationCrash, match="died with signal SIGKILL") as died:
        s.launch(axpy, 1, 64, [x, y, np.float32(1.0), 64])
    assert died.value.status == -signal.SIGKILL
    with pytest.raises(warptlm.SimulationCrash, match="the session has ended \\(its process died"):
        s.read(y)
    s.close()  # nothing to copy back from a dead process; no error
    assert y[0] == 1.0

    spin = warptlm.Kernel(SPIN_PTX, "spin")
    with small.session(mode="timing", timeout=0.5) as t:
        with pytest.raises(warptlm.SimulationTimeout, match="kernel 'spin'.*time limit of 0.5 s"):
            t.launch(spin, 64, 256, [])
        with pytest.raises(warptlm.SimulationCrash, match="killed after the time limit"):
            t.launch(spin, 1, 32, [])
    # the caller's process goes on: a new session works
    with small.session() as again:
        again.launch(axpy, 1, 64, [x, y, np.float32(1.0), 64])
    assert y[0] == 1.0 and y[1] == 2.0


def test_a_session_on_several_host_threads_is_the_one_thread_session(axpy):
    """host_threads parallelises the SMs of a timing session without changing
    a statistic or an output (docs/parallel-sms.md)."""
    outcomes = []
    for threads in (1, 2):
        platform = warptlm.Platform("fermi", host_threads=threads)
        assert platform.config["host_threads"] == threads
        x, y = _xy(4000)
        with platform.session(mode="timing") as s:
            stats = [s.launch(axpy, 32, 128, [x, y, np.float32(0.5), 4000]).stats for _ in range(2)]
        outcomes.append((stats, y.copy()))
    (one, y1), (two, y2) = outcomes
    assert one == two
    np.testing.assert_array_equal(y1, y2)
    np.testing.assert_array_equal(y1, 1 + 2 * 0.5 * np.arange(4000, dtype=np.float32))
