// How a warp runs a reconverging CFG with one program counter and an exec
// mask (the semantics the exec-mask lowering implements; seed 001's
// "Lowering Reconverging CFGs"): at a divergent branch N the lanes heading
// for its primary successor P (the one that post-dominates N) are deferred in
// P's re-join mask and the warp goes on to the secondary successor with the
// others, or straight to P when none are left; entering P adds its re-join
// mask to the exec mask. A uniform branch sends the whole warp one way. An
// exec mask that empties elsewhere (lanes exited) sends the warp to the
// block's immediate post-dominator, where the next waiting lanes are.
//
// Why no lane waits forever: a lane deferred for P waits while the warp runs
// blocks that P post-dominates (P post-dominates N, hence N's other
// successor, hence every block reached from it before P), so the warp reaches
// P before the exit. docs/reconverging-cfg.md ("Running it").
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "reconverge/reconverging_cfg.h"

namespace warptlm {

struct WaveRun {
  // Per lane, the original blocks it ran, in order.
  std::vector<std::vector<uint32_t>> lane_blocks;
  // The blocks the warp ran (flow blocks included), with their exec masks.
  std::vector<std::pair<uint32_t, uint64_t>> steps;
  uint64_t deferrals = 0;  // divergent branches that deferred lanes
  uint64_t joins = 0;      // entries into a block whose re-join mask held lanes
  bool finished = false;   // reached the exit within the step limit
};

// Which successor (index into the block's original successors) lane `lane`
// takes on its `visit`-th execution of original block `block`.
using LaneDecision = std::function<unsigned(unsigned lane, uint32_t block, unsigned visit)>;

// Runs `lanes` lanes (up to 64) from the entry until the exit or `max_steps`
// warp steps. Throws std::logic_error when the CFG is not reconverging (a
// divergent block without a post-dominating successor), when lanes disagree
// at a uniform branch, or when lanes are still waiting at the exit.
WaveRun run_wave(const ReconvergingCfg& cfg, unsigned lanes, const LaneDecision& decide,
                 size_t max_steps);

// Per block: the successor that post-dominates it (its immediate
// post-dominator when that is a successor), or -1.
std::vector<int32_t> primary_successors(const ReconvergingCfg& cfg);

}  // namespace warptlm
