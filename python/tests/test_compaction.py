"""Thread block compaction, lane permutations and the compactability analysis from Python."""

import numpy as np
import pytest

import warptlm
from conftest import HEADER

# out[tid] = tid even ? 2 : 1. The branch depends on %tid only: programmatic.
PARITY_PTX = HEADER + r"""
.visible .entry parity(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 1;
  setp.eq.s32 %p1, %r2, 0;
  @%p1 bra EVEN;
  mov.u32 %r3, 1;
  bra.uni JOIN;
EVEN:
  mov.u32 %r3, 2;
JOIN:
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd3, %rd2, %rd3;
  st.global.u32 [%rd3], %r3;
  ret;
}
"""

# One CTA of 32 threads, warp size 8: warps 0-3, each with its even lanes on
# the taken side (16 threads, 50% of the CTA) and its odd lanes on the other.
# Per side: NW_NoTBC 4 (every warp), NW_ideal ceil(16/8) = 2. NW_TBC is the
# most threads sharing a home lane: without permutation the even lanes hold 4
# each (4); odd_even, wid, flip_odd, rotate_odd_1 and balanced move warps 1
# and 3 (balanced: warps 1 and 2; XOR 111 and 001) to the odd lanes (2);
# xor_half (XOR 4) and rev_wid (XOR 4, 2, 6) keep even lanes even (4).
EXPECTED_NW_TBC = {"none": 4, "odd_even": 2, "rev_wid": 4, "wid": 2, "flip_odd": 2, "rotate_odd_1": 2,
                   "balanced": 2, "xor_half": 4}
# Lockstep instructions: 6 before the branch and 4 from JOIN with all 32
# threads (4 warps, also when compacted), 1 on the taken and 2 on the
# not-taken side with 16 threads. Threads: 10*32 + 3*16 = 368.
# Warps: 10*4 + 3*4 = 52 uncompacted (= 4 warps x 13 under ipdom); 10*4 + 3*2 = 46 at NW 2.


@pytest.fixture(scope="module")
def parity():
    return warptlm.Kernel.from_ptx(PARITY_PTX, "parity")


def run(platform, parity, **kwargs):
    out = np.zeros(32, dtype=np.uint32)
    result = platform.launch(parity, 1, 32, [out], **kwargs)
    assert list(out) == [2 if t % 2 == 0 else 1 for t in range(32)]
    return result


def test_analysis_counts_every_permutation_by_hand(small, parity):
    platform = small.with_(warp_size=8)
    result = run(platform, parity, compactability=True)
    a = result.compactability
    assert a.warp_size == 8 and set(EXPECTED_NW_TBC) <= set(a.permutations)
    assert result.stats["warp_instructions"] == 52  # counted uncompacted: compaction is off
    paths = a.paths.set_index(["direction", "permutation"])
    for direction in ("taken", "not_taken"):
        for name, nw in EXPECTED_NW_TBC.items():
            row = paths.loc[(direction, name)]
            assert (row["paths"], row["threads"], row["nw_no_compaction"], row["nw_ideal"]) == (1, 16, 4, 2)
            assert (row["nw_tbc"], row["tbc_compacted"]) == (nw, int(nw < 4)), (direction, name)
            assert (row["branch_class"], row["activity"], row["ideal_compacted"]) == ("P", "50-75%", 1)
    summary = a.summary().set_index(["branch_class", "permutation"])
    assert summary.loc[("P", "balanced"), "compaction_rate"] == 1.0
    assert summary.loc[("P", "none"), "compaction_rate"] == 0.0
    assert summary.loc[("P", "rev_wid"), "compaction_rate"] == 0.0
    assert (summary["ideal_compaction_rate"] == 1.0).all() and (summary["paths"] == 2).all()
    by_activity = a.by_activity()
    assert set(by_activity["activity"]) == {"50-75%"}
    util = a.simd_utilisation()
    assert util.loc["no_compaction", "warp_instructions"] == 52
    assert util.loc["ideal", "warp_instructions"] == 46
    assert util.loc["tbc:balanced", "warp_instructions"] == 46
    assert util.loc["tbc:xor_half", "warp_instructions"] == 52
    assert util.loc["no_compaction", "simd_utilisation"] == pytest.approx(368 / 416)
    assert util.loc["tbc:balanced", "simd_utilisation"] == pytest.approx(1.0)


def test_compaction_changes_the_warp_count_not_the_outputs(small, parity):
    base = small.with_(warp_size=8)
    plain = run(base, parity)
    tbc = run(base.with_(compaction="tbc"), parity)
    balanced = run(base.with_(compaction="tbc", permutation="balanced"), parity)
    ideal = run(base.with_(compaction="ideal"), parity)
    capri = run(base.with_(compaction="capri", permutation="balanced"), parity)
    assert plain.stats["warp_instructions"] == tbc.stats["warp_instructions"] == 52
    # One CTA, one divergent branch: no entry yet, predicted adequate, compacted.
    assert capri.stats["warp_instructions"] == 46 and capri.stats["capri_compactions"] == 1
    assert balanced.stats["warp_instructions"] == ideal.stats["warp_instructions"] == 46
    assert balanced.stats["thread_instructions"] == plain.stats["thread_instructions"] == 368
    assert balanced.stats["activity_factor"] == pytest.approx(1.0)


def test_bad_combinations_name_the_field(small, parity):
    with pytest.raises(ValueError, match="reconvergence=ipdom only"):
        small.with_(compaction="tbc", reconvergence="dual_path")
    with pytest.raises(ValueError, match="compaction"):
        small.with_(compaction="dwf")
    with pytest.raises(ValueError, match="permutation"):
        small.with_(permutation="shuffle")
    with pytest.raises(ValueError, match="use mode='functional'"):
        run(small, parity, compactability=True, mode="timing")
    with pytest.raises(ValueError, match="sm.warp_formation_cycles: an option of compaction"):
        small.with_(sm__warp_formation_cycles=3)


def test_timing_runs_formed_warps(small, parity):
    # The same counts as the functional run above, now issued by the SM: 52
    # warp instructions without a useful permutation, 46 with balanced. The
    # CTA synchronises at the branch, at JOIN from each side and at its ret,
    # and forms 4 sets: the start, each side, and JOIN.
    base = small.with_(warp_size=8)
    tbc = run(base.with_(compaction="tbc"), parity, mode="timing")
    balanced = run(base.with_(compaction="tbc", permutation="balanced"), parity, mode="timing")
    assert tbc.stats["warp_instructions"] == 52 and balanced.stats["warp_instructions"] == 46
    for r in (tbc, balanced):
        assert r.stats["sm.compaction_syncs"] == 4 and r.stats["sm.warp_formations"] == 4
    assert tbc.stats["sm.formed_warps"] == 4 * 4
    assert balanced.stats["sm.formed_warps"] == 4 + 2 + 2 + 4
    assert balanced.stats["cycles"] < tbc.stats["cycles"]
    # CAPRI: one branch instance, no table entry yet: predicted adequate, compacted.
    capri = run(base.with_(compaction="capri", permutation="balanced"), parity, mode="timing")
    assert capri.stats["warp_instructions"] == 46 and capri.stats["capri_compactions"] == 1
    assert capri.stats["sm.capri_bypasses"] == 0


def test_scenario_analysis_is_consistent(small):
    a = warptlm.compactability(small, "bitonic")
    assert not a.paths.empty and set(a.paths["branch_class"]) <= {"P", "D"}
    # NW_ideal <= NW_TBC <= NW_NoTBC for every group and permutation.
    assert (a.paths["nw_ideal"] <= a.paths["nw_tbc"]).all()
    assert (a.paths["nw_tbc"] <= a.paths["nw_no_compaction"]).all()
    summary = a.summary()
    assert (summary["compaction_rate"] <= summary["ideal_compaction_rate"]).all()
    # The uncompacted lockstep count is the per-warp IPDOM run's.
    plain = warptlm.scenarios.run(small, "bitonic")
    assert a.totals["nw_no_compaction"] == plain.stats["warp_instructions"]
