"""Compiler-side reconvergence's transformed CFG as data: Kernel.reconverging_cfg."""
import os
import pickle

import pytest

import warptlm
from conftest import AXPY_PTX, DIVERGE_PTX, SOURCE_DIR

SPIN_PTX = """
.version 7.0
.target sm_70
.address_size 64
.visible .entry spin()
{
  .reg .pred %p<2>;
  .reg .b32 %r<2>;
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 ret;
LOOP:
  bra.uni LOOP;
}
"""


def test_the_kernels_cfg_lists_blocks_edges_and_flow_blocks():
    k = warptlm.Kernel.from_ptx(os.path.join(SOURCE_DIR, "scenarios", "collatz", "kernel.ptx"), "collatz_steps")
    cfg = k.reconverging_cfg
    assert isinstance(cfg, warptlm.ReconvergingCfg)
    assert cfg.function == "collatz_steps"
    assert cfg.flow_blocks == 1
    flow = [b for b in cfg.blocks if b.flow]
    assert [b.name for b in flow] == ["flow0"]
    assert flow[0].pc is None and flow[0].divergent
    assert set(flow[0].successors) == {"B4", "B7"}
    assert set(flow[0].routes) == {("B6", "B7", "B7"), ("B3", "B4", "B4")}
    # The if-else's then side (B3) now goes through the flow block.
    assert ("B3", "flow0") in cfg.edges and ("B6", "flow0") in cfg.edges
    assert cfg.blocks[0].name == "B0" and cfg.blocks[0].pc == 0
    assert cfg.dot.startswith('digraph "collatz_steps" {')
    assert list(k.reconverging_cfgs) == ["collatz_steps"]
    # Pickled kernels (sweeps send them to workers) compute it again.
    assert pickle.loads(pickle.dumps(k)).reconverging_cfg == cfg


def test_an_if_then_is_unchanged_and_an_if_else_gets_one_flow_block():
    cfg = warptlm.Kernel.from_ptx(AXPY_PTX, "axpy").reconverging_cfg
    assert cfg.flow_blocks == 0
    assert all(not b.routes for b in cfg.blocks)
    # diverge's if-else: the then side runs first, then a flow block sends
    # the else side's lanes on.
    assert warptlm.Kernel.from_ptx(DIVERGE_PTX, "diverge").reconverging_cfg.flow_blocks == 1


def test_a_kernel_that_cannot_reconverge_says_where_and_why():
    k = warptlm.Kernel.from_ptx(SPIN_PTX, "spin")
    with pytest.raises(ValueError, match=r"function spin: B1 cannot reach the exit \(an infinite loop\)"):
        k.reconverging_cfg


def test_exec_mask_is_a_scheme_like_every_other():
    assert "exec_mask" in warptlm.schemes()["reconvergence"]
    base = warptlm.Platform("small")
    lowered = warptlm.Platform("small", reconvergence="exec_mask")
    for mode in ("functional", "timing"):
        ipdom = warptlm.scenarios.run(base, "collatz", mode=mode)
        r = warptlm.scenarios.run(lowered, "collatz", mode=mode)
        assert r.passed, r.message
        assert r.stats["flow_blocks"] == 1
        assert 0 < r.stats["mask_instructions"] < r.stats["warp_instructions"]
        assert r.stats["mask_instructions_static"] > 0
        assert r.stats["thread_instructions"] >= ipdom.stats["thread_instructions"]
        assert ipdom.stats["mask_instructions"] == 0 and ipdom.stats["flow_blocks"] == 0


def test_an_exec_mask_run_of_a_kernel_that_cannot_reconverge_is_refused_by_name():
    k = warptlm.Kernel.from_ptx(SPIN_PTX, "spin")
    with pytest.raises(ValueError, match=r"function spin: B1 cannot reach the exit"):
        warptlm.Platform("small", reconvergence="exec_mask").launch(k, grid=1, block=32, args=[])
