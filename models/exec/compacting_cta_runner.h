// Runs one CTA in lockstep under the block-wide reconvergence stack of thread
// block compaction (a compaction unit, compaction/compaction_unit.h, forms
// the warps; also the compactability analysis, without one): the top entry's threads execute one
// instruction at a time across the CTA. Each lockstep instruction is issued for its functional
// effect once per static warp (its lanes in the top entry) through
// WarpIssuer, so registers, call frames, warp-level operations and faults are
// those of the static warp; the combined control effect drives the block
// stack, and the instruction counts as the number of warps compaction forms.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "compaction/block_stack.h"
#include "compaction/compactability.h"
#include "compaction/compaction_unit.h"
#include "compaction/warp_formation.h"
#include "exec/functional_executor.h"
#include "exec/run_stats.h"
#include "exec/trace.h"
#include "exec/warp.h"
#include "exec/warp_environment.h"
#include "exec/warp_issuer.h"

namespace warptlm {

class CompactingCtaRunner {
 public:
  // How a lockstep instruction counts: the warps `unit` forms (null, only
  // with an analysis: lockstep, counted uncompacted). The unit outlives the
  // runner and may be shared by several (an SM's CTAs share one).
  CompactingCtaRunner(const WarpIssuer& issuer, KernelMemory& memory, const ExecConfig& config,
                      CompactionUnit* unit, TraceSink* trace, CompactionAnalysis* analysis);

  // Runs to its end the CTA `cta` whose warps `warps` WarpIssuer::start_warp
  // set up (their reconvergence units stay unused). `warp_base`: global id of
  // the CTA's warp 0, for the trace. Throws KernelFault.
  void run(std::vector<Warp>& warps, CtaContext& cta, uint32_t warp_base, RunStats& stats);

  // Step by step, for the timing model, where the formed warps run the
  // straight-line code between synchronisation points on their own and the
  // block stack moves only at those points. begin() starts the CTA (warps as
  // for run(), which must outlive the CTA).
  void begin(const std::vector<Warp*>& warps);
  bool finished() const { return stack_.finished(); }
  Pc pc() const { return stack_.top().pc; }
  Pc rpc() const { return stack_.top().rpc; }
  // Changes whenever formation() may have changed.
  uint64_t version() const { return stack_.top_version(); }
  // The warps compaction forms for the top entry's threads (the static warps'
  // pieces when the entry is not compacted), and whether they are compacted.
  const std::vector<FormedWarp>& formation();
  bool compacted() const { return compacted_; }
  // The top entry's threads ran straight-line code up to `pc` (no control
  // effect on the way); at its reconvergence pc the entry pops.
  void jump(Pc pc);
  // Executes the top entry's instruction in lockstep (once per static warp
  // piece) and applies its control effect, counting what run() counts except
  // the warp instructions (the timing model counts each formed warp's issue).
  // Returns the instruction's control kind. Throws KernelFault.
  Control step(CtaContext& cta, RunStats& stats);
  // Whether the last step() was a conditional branch whose threads all went
  // the same way (no split of the block stack's entry).
  bool stepped_uniform_branch() const { return uniform_branch_; }
  // The top entry's warps ran past the conditional branch at `pc` without
  // synchronising (the unit's may_compact() was false), each under its own
  // reconvergence stack, to the branch's reconvergence pc `reconv`. `taken`:
  // the threads that took the branch; `exited`: those that exited on the way.
  // Tells the unit the branch's outcome, and moves the top entry to `reconv`.
  void rejoin(Pc pc, const CtaMask& taken, const CtaMask& exited, Pc reconv, RunStats& stats);

 private:
  // Derives from the top entry's threads what stays fixed until they change:
  // the warps formed (NW), the analysis counts.
  void refresh();
  // Issues the top entry's instruction once per static warp piece; fills
  // event_ with the combined control effect.
  void execute_pieces(CtaContext& cta, RunStats& stats);
  // After execute_pieces(): barriers, the analysis and CAPRI, the stack.
  void apply_control(CtaContext& cta, Pc pc, RunStats& stats);
  void trace_formed_warps(uint32_t warp_base, Pc pc, uint64_t first_step);
  // A bar.sync in lockstep: completes when the threads executing it are all
  // the barrier expects; otherwise the barrier-deadlock fault.
  void synchronise(const CtaContext& cta, Pc pc);
  // The branch just executed into side_ (taken) and other_side_ (not taken);
  // whether both hold threads (divergent across the CTA).
  bool split_sides();
  // The analysis: the two CTA-wide paths of a divergent branch (split_sides()).
  void note_paths(Pc pc, const BranchInfo& branch);
  // A selective unit: whether the paths of the divergent branch at `pc`
  // (split_sides()) are compacted.
  bool decide_compaction(Pc pc, RunStats& stats);
  // The CTA's block-stack counters into `stats` (once, when it finished).
  void add_counters(RunStats& stats) const;

  const WarpIssuer& issuer_;
  KernelMemory& memory_;
  const ExecConfig& config_;
  TraceSink* trace_;
  CompactionAnalysis* analysis_;
  CompactionUnit* unit_;    // null: no compaction
  bool selective_ = false;  // unit_->selective()

  // Per CTA; reused so the hot path does not allocate.
  BlockStack stack_;
  uint64_t cta_threads_ = 0;
  std::vector<Warp*> warp_ptrs_;
  uint64_t version_ = ~uint64_t(0);       // stack_.top_version() that active_ was taken at
  CtaMask active_;                        // the top entry's threads
  unsigned formed_ = 0;                   // warps compaction forms for them (NW)
  bool compacted_ = false;                // formed_ counts compacted warps, not static ones
  std::vector<FormedWarp> formed_warps_;  // with a trace, and stepping
  bool form_ = false;                     // keep formed_warps_ current
  WarpCounts counts_, path_counts_;       // with an analysis
  CtaMask side_, other_side_;             // a branch's sides, for the analysis and CAPRI
  CtaControlEvent event_;
  ControlEvent piece_event_;
  bool marker_ = false;
  bool uniform_branch_ = false;  // see stepped_uniform_branch()
  const BranchInfo* branch_ = nullptr;
  uint32_t barrier_id_ = 0, barrier_count_ = 0;
  std::vector<LaneMask> barrier_votes_;  // per warp: bar.red's predicate, lanes where it held
  bool barrier_ids_differ_ = false;
};

}  // namespace warptlm
