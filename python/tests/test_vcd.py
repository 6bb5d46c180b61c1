"""The VCD of a timing run holds the whole launch, its last transitions included."""

import re

import numpy as np

from conftest import AXPY_PTX

import warptlm


def read_vcd(path):
    """{hierarchical signal name: [(time, value)...]} from a VCD file."""
    names, changes, scope, now = {}, {}, [], 0
    for line in path.read_text().splitlines():
        line = line.strip()
        if line.startswith("$scope"):
            scope.append(line.split()[2])
        elif line.startswith("$upscope"):
            scope.pop()
        elif line.startswith("$var"):
            ident, name = line.split()[3:5]
            names[ident] = ".".join(scope[1:] + [name])  # without SystemC's top scope
        elif line.startswith("#"):
            now = int(line[1:])
        elif line[:1] in "01" and line[1:] in names:
            changes.setdefault(names[line[1:]], []).append((now, int(line[0])))
        elif re.match(r"b[01]+ \S+$", line):
            bits, ident = line[1:].split()
            changes.setdefault(names[ident], []).append((now, int(bits, 2)))
    return changes


def test_vcd_ends_with_the_launch_finished(tmp_path, small):
    kernel = warptlm.Kernel.from_ptx(AXPY_PTX, "axpy")
    x, y = np.arange(256, dtype=np.float32), np.ones(256, np.float32)
    path = tmp_path / "top.vcd"
    small.launch(kernel, 8, 32, [x, y, 2.0, 256], mode="timing", vcd=path)
    changes = read_vcd(path)
    irq = [v for _, v in changes["gpu.irq"]]
    assert 1 in irq and irq[-1] == 0  # raised at the end of the launch, then acknowledged
    running = [v for _, v in changes["gpu.running"]]
    assert 1 in running and running[-1] == 0
    raised = next(t for t, v in changes["gpu.irq"] if v == 1)
    assert changes["gpu.running"][-1][0] <= raised
    for sm in ("gpu.sm0.resident_ctas", "gpu.sm1.resident_ctas"):
        values = [v for _, v in changes[sm]]
        assert max(values) > 0 and values[-1] == 0, sm
