// Runs a launch's CTAs exactly, one at a time in linear order, warp by warp
// in turns of `quantum` warp instructions (or in lockstep under compaction):
// the engine of the functional executor and of the GPU's loosely-timed mode,
// which runs it CTA by CTA and hears of every warp turn to keep its time. A
// cooperative launch runs all its CTAs at once instead, CTA after CTA in
// turns, so grid.sync() can complete (docs/cooperative-launch.md).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "compaction/compaction_unit.h"
#include "exec/compacting_cta_runner.h"
#include "exec/cta_barriers.h"
#include "exec/cta_memory.h"
#include "exec/functional_executor.h"
#include "exec/warp.h"
#include "exec/warp_issuer.h"

namespace warptlm {

struct GridShape {
  Dim3 grid, block;
  uint32_t shared_bytes = 0;  // dynamic shared memory per CTA
  // A cooperative launch's grid-synchronisation workspace (global address);
  // 0 for an ordinary launch.
  uint64_t grid_workspace = 0;
};

class GridRunner {
 public:
  // `program`, `kernel`, `memory`, `config` and `trace` must outlive the
  // runner. Throws std::invalid_argument for an unknown compaction unit.
  GridRunner(const Program& program, const Function& kernel, KernelMemory& memory,
             const GridShape& shape, const ExecConfig& config, TraceSink* trace,
             CompactionAnalysis* analysis);

  // Called after every warp turn (after every CTA in lockstep) with the
  // statistics so far; it may throw to stop the run there.
  void set_turn_hook(std::function<void(const RunStats&)> hook) { hook_ = std::move(hook); }

  // Every CTA, in linear order. Throws KernelFault.
  RunStats run();
  // CTA `linear` (x fastest, then y, then z). Throws KernelFault.
  void run_cta(uint64_t linear);
  // Every CTA at once (a cooperative launch): each CTA in linear order runs
  // one round of warp turns, then the next, until all are done. Throws
  // KernelFault; std::invalid_argument under compaction, which runs a CTA
  // at a time in lockstep.
  RunStats run_all_resident();
  uint64_t ctas() const { return shape_.grid.count(); }
  // The run's statistics so far (warp_size and simd_width set).
  const RunStats& stats() const { return stats_; }

 private:
  // A CTA that is running: its context, warps and barriers.
  struct ResidentCta {
    CtaContext context;
    std::vector<Warp> warps;
    std::vector<Warp*> warp_ptrs;
    CtaBarriers barriers;
    uint32_t warp_base = 0;  // global id of its warp 0, for the trace
    bool done = false;
  };
  void start_cta(ResidentCta& c, uint64_t linear);
  // One turn of each unfinished warp of `c` (up to `quantum` instructions);
  // whether any issued. Marks `c` done, counting its warps, when all finish.
  bool round(ResidentCta& c);
  // Issues the next instruction of `w`, or a straight run of at most `max`
  // (ReconvergenceUnit::straight_run); returns how many issued (1 when the
  // warp stopped at a barrier).
  unsigned step(ResidentCta& c, Warp& w, unsigned max);

  RegisterLayouts layouts_;  // before issuer_, which keeps a reference
  WarpIssuer issuer_;
  const Module& module_;
  KernelMemory& mem_;
  GridShape shape_;
  const ExecConfig& config_;
  TraceSink* trace_;
  std::function<void(const RunStats&)> hook_;
  std::unique_ptr<CompactionUnit> unit_;
  std::unique_ptr<CompactingCtaRunner> lockstep_;
  RunStats stats_;
  std::vector<ResidentCta> ctas_;  // one at a time, or the whole grid (run_all_resident)
  std::vector<Path> paths_;
};

}  // namespace warptlm
