#include "reconverge/wave_execution.h"

#include <stdexcept>
#include <string>

namespace warptlm {

std::vector<int32_t> primary_successors(const ReconvergingCfg& cfg) {
  const std::vector<int32_t> ipdom = immediate_post_dominators(cfg);
  std::vector<int32_t> primary(cfg.blocks.size(), -1);
  for (uint32_t b = 0; b < cfg.blocks.size(); ++b) {
    const std::vector<uint32_t>& s = cfg.blocks[b].succ;
    if (s.size() == 2 && ipdom[b] >= 0 &&
        (static_cast<uint32_t>(ipdom[b]) == s[0] || static_cast<uint32_t>(ipdom[b]) == s[1]))
      primary[b] = ipdom[b];
  }
  return primary;
}

WaveRun run_wave(const ReconvergingCfg& cfg, unsigned lanes, const LaneDecision& decide,
                 size_t max_steps) {
  if (lanes == 0 || lanes > 64) throw std::invalid_argument("run_wave: 1 to 64 lanes");
  const std::vector<int32_t> ipdom = immediate_post_dominators(cfg);
  const std::vector<int32_t> primary = primary_successors(cfg);
  WaveRun run;
  run.lane_blocks.resize(lanes);
  std::vector<uint64_t> waiting(cfg.blocks.size(), 0);  // re-join masks
  std::vector<uint32_t> intent(lanes, 0), from(lanes, 0), next(lanes, 0);
  std::vector<std::vector<unsigned>> visits(lanes, std::vector<unsigned>(cfg.original_blocks, 0));
  uint64_t exec = lanes == 64 ? ~uint64_t(0) : (uint64_t(1) << lanes) - 1;
  uint32_t block = cfg.entry;
  auto name = [&](uint32_t b) { return cfg.blocks[b].name; };
  while (run.steps.size() < max_steps) {
    if (waiting[block]) {
      exec |= waiting[block];
      waiting[block] = 0;
      ++run.joins;
    }
    run.steps.emplace_back(block, exec);
    const ReconvergingCfg::Block& blk = cfg.blocks[block];
    for (unsigned l = 0; l < lanes; ++l)
      if (!blk.flow && ((exec >> l) & 1)) run.lane_blocks[l].push_back(block);
    if (blk.succ.empty()) {
      for (uint32_t b = 0; b < waiting.size(); ++b)
        if (waiting[b])
          throw std::logic_error("run_wave: lanes still wait for " + name(b) + " at the exit");
      run.finished = true;
      break;
    }
    for (unsigned l = 0; l < lanes; ++l) {
      if (!((exec >> l) & 1)) continue;
      if (!blk.flow) {
        const unsigned i =
            blk.original_succ.size() == 1 ? 0 : decide(l, block, visits[l][block]++) % 2;
        intent[l] = blk.original_succ[i];
        next[l] = blk.edge_to[i];
      } else {
        next[l] = cfg.route(block, from[l], intent[l]);
      }
      from[l] = block;
    }
    if (blk.divergent) {
      if (primary[block] < 0)
        throw std::logic_error("run_wave: " + name(block) + " has no post-dominating successor");
      const uint32_t p = static_cast<uint32_t>(primary[block]);
      const uint32_t s = blk.succ[0] == p ? blk.succ[1] : blk.succ[0];
      uint64_t to_p = 0;
      for (unsigned l = 0; l < lanes; ++l)
        if (((exec >> l) & 1) && next[l] == p) to_p |= uint64_t(1) << l;
      if (to_p) {
        waiting[p] |= to_p;  // deferred: they re-join when the warp enters p
        ++run.deferrals;
      }
      exec &= ~to_p;
      block = exec ? s : p;
      continue;
    }
    if (!exec) {  // nobody left here: on to where the next lanes wait
      block = blk.succ.size() == 1 ? blk.succ[0] : static_cast<uint32_t>(ipdom[block]);
      continue;
    }
    uint32_t to = cfg.blocks.size();
    for (unsigned l = 0; l < lanes; ++l) {
      if (!((exec >> l) & 1)) continue;
      if (to != cfg.blocks.size() && next[l] != to)
        throw std::logic_error("run_wave: the uniform branch of " + name(block) +
                               " sends lanes to " + name(to) + " and " + name(next[l]));
      to = next[l];
    }
    block = to;
  }
  return run;
}

}  // namespace warptlm
