#include "exec/compacting_cta_runner.h"

#include <algorithm>

#include "exec/cta_barriers.h"

namespace warptlm {
namespace {

void add_decisions(const CompactionDecisions& d, RunStats& stats) {
  stats.capri_predictions += d.predictions;
  stats.capri_compactions += d.compactions;
  stats.capri_mispredictions += d.mispredictions;
}

}  // namespace

CompactingCtaRunner::CompactingCtaRunner(const WarpIssuer& issuer, KernelMemory& memory,
                                         const ExecConfig& config, CompactionUnit* unit,
                                         TraceSink* trace, CompactionAnalysis* analysis)
    : issuer_(issuer),
      memory_(memory),
      config_(config),
      trace_(trace),
      analysis_(analysis),
      unit_(unit),
      selective_(unit && unit->selective()) {}

void CompactingCtaRunner::begin(const std::vector<Warp*>& warps) {
  const unsigned nw = static_cast<unsigned>(warps.size());
  active_.assign(nw, 0);
  side_.assign(nw, 0);
  other_side_.assign(nw, 0);
  event_.executed.assign(nw, 0);
  barrier_votes_.assign(nw, 0);
  warp_ptrs_ = warps;
  cta_threads_ = 0;
  for (Warp* w : warps) {
    active_[w->index] = w->valid;
    cta_threads_ += lane_count(w->valid);
  }
  version_ = ~uint64_t(0);
  stack_.reset(issuer_.kernel().begin, active_);
}

void CompactingCtaRunner::run(std::vector<Warp>& warps, CtaContext& cta, uint32_t warp_base,
                              RunStats& stats) {
  std::vector<Warp*> ptrs;
  for (Warp& w : warps) ptrs.push_back(&w);
  form_ = trace_ != nullptr;
  begin(ptrs);
  while (!stack_.finished()) {
    const Pc pc = stack_.top().pc;
    if (stack_.top_version() != version_) refresh();
    const uint64_t first_step = stats.warp_instructions;
    execute_pieces(cta, stats);
    // The lockstep instruction issues as the NW warps compaction forms.
    stats.warp_instructions += formed_;
    stats.issuable_paths_sum += formed_;  // one path offered to each formed warp
    stats.max_issuable_paths = std::max(stats.max_issuable_paths, 1u);
    if (marker_) stats.marker_instructions += formed_;
    size_t first = 0;  // the top entry always holds a thread
    while (active_[first] == 0) ++first;
    issuer_.check_budget(warps[first], cta, pc, active_[first], stats);
    if (trace_) trace_formed_warps(warp_base, pc, first_step);
    if (analysis_) analysis_->add_instruction(counts_);
    apply_control(cta, pc, stats);
  }
  add_counters(stats);
}

void CompactingCtaRunner::add_counters(RunStats& stats) const {
  const ReconvergenceCounters& rc = stack_.counters();
  stats.reconvergences += rc.reconvergences;
  stats.early_reconvergences += rc.early_reconvergences;
  stats.peak_entries = std::max(stats.peak_entries, rc.peak_entries);
}

const std::vector<FormedWarp>& CompactingCtaRunner::formation() {
  form_ = true;
  if (stack_.top_version() != version_) refresh();
  return formed_warps_;
}

void CompactingCtaRunner::jump(Pc pc) {
  if (stack_.top().pc == pc) return;
  CtaControlEvent none;
  none.next = pc;
  stack_.advance(none);
}

void CompactingCtaRunner::rejoin(Pc pc, const CtaMask& taken, const CtaMask& exited, Pc reconv,
                                 RunStats& stats) {
  if (stack_.top_version() != version_) refresh();
  // The branch's outcome, as a lockstep step would have seen it.
  std::copy(taken.begin(), taken.end(), event_.executed.begin());
  const bool divergent = split_sides();
  bool left = false, stays = false;
  for (size_t w = 0; w < active_.size(); ++w) {
    left |= (active_[w] & exited[w]) != 0;
    stays |= (active_[w] & ~exited[w]) != 0;
  }
  if (divergent && selective_) {
    CompactionDecisions d;
    unit_->learn_bypassed(pc, side_, other_side_, d);
    add_decisions(d, stats);
  }
  if (left) {
    // Exits leave the whole block stack, as a lockstep exit does.
    CtaControlEvent exit;
    exit.kind = Control::Exit;
    exit.executed = exited;
    exit.next = stack_.top().pc;
    stack_.advance(exit);
  }
  // An entry that kept threads is still the top (only emptied entries go).
  if (stays && !stack_.finished()) jump(reconv);
}

Control CompactingCtaRunner::step(CtaContext& cta, RunStats& stats) {
  const Pc pc = stack_.top().pc;
  if (stack_.top_version() != version_) refresh();
  execute_pieces(cta, stats);
  const Control kind = event_.kind;
  apply_control(cta, pc, stats);
  if (stack_.finished()) add_counters(stats);
  return kind;
}

void CompactingCtaRunner::apply_control(CtaContext& cta, Pc pc, RunStats& stats) {
  event_.next = pc + kInstrBytes;
  if (event_.kind == Control::Barrier) synchronise(cta, pc);
  const bool conditional = event_.kind == Control::Branch && branch_ && branch_->conditional;
  const bool divergent = conditional && split_sides();
  uniform_branch_ = conditional && !divergent;
  if (analysis_ && divergent) note_paths(pc, *branch_);
  event_.compact_paths = !selective_ || !divergent || decide_compaction(pc, stats);
  if (stack_.advance(event_) == 0) return;
  // Calls completed: every warp keeps one frame per call still open that
  // it entered (a warp with no thread in a call never pushed its frame).
  for (Warp* w : warp_ptrs_)
    if (w->frames.size() > stack_.call_depth() + 1)
      issuer_.complete_frames(*w,
                              static_cast<unsigned>(w->frames.size() - 1 - stack_.call_depth()));
}

void CompactingCtaRunner::refresh() {
  const LaneMask* top = stack_.top_mask();
  std::copy(top, top + active_.size(), active_.begin());
  version_ = stack_.top_version();
  compacted_ = unit_ && (!selective_ || stack_.top().compact);
  formed_ = compacted_ ? unit_->count_warps(active_) : nw_no_compaction(active_);
  if (analysis_) analysis_->measure(active_, counts_);
  if (!form_) return;
  if (compacted_)
    unit_->form_warps(active_, formed_warps_);
  else
    form_static_warps(active_, config_.warp_size, formed_warps_);
}

void CompactingCtaRunner::execute_pieces(CtaContext& cta, RunStats& stats) {
  const Pc pc = stack_.top().pc;
  FunctionalWarpEnvironment env(issuer_.module(), memory_, cta);
  event_.kind = Control::None;
  event_.target = 0;
  event_.reconv = kExitPc;
  marker_ = false;
  branch_ = nullptr;
  barrier_ids_differ_ = false;
  bool barrier_seen = false;
  for (size_t w = 0; w < warp_ptrs_.size(); ++w) {
    const LaneMask lanes = active_[w];
    event_.executed[w] = 0;
    if (lanes == 0) continue;
    env.bind(warp_ptrs_[w]);
    IssueResult r =
        issuer_.execute_path(*warp_ptrs_[w], Path{pc, lanes, 0}, cta, env, piece_event_);
    event_.executed[w] = r.outcome.executed;
    barrier_votes_[w] = r.outcome.barrier_votes;
    stats.thread_instructions += lane_count(lanes);
    // Branch statistics per static warp, as a run without compaction counts them.
    WarpIssuer::count_branch(r, lanes, stats);
    marker_ = piece_event_.marker;
    if (r.branch) branch_ = r.branch;
    // Every piece runs the same instruction: they agree on kind and target,
    // except that a piece none of whose lanes executes a barrier reports None.
    if (piece_event_.kind == Control::None) continue;
    event_.kind = piece_event_.kind;
    event_.target = piece_event_.target;
    event_.reconv = piece_event_.reconv;
    if (piece_event_.kind != Control::Barrier) continue;
    if (barrier_seen &&
        (r.outcome.barrier_id != barrier_id_ || r.outcome.barrier_count != barrier_count_))
      barrier_ids_differ_ = true;
    barrier_seen = true;
    barrier_id_ = r.outcome.barrier_id;
    barrier_count_ = r.outcome.barrier_count;
  }
}

void CompactingCtaRunner::trace_formed_warps(uint32_t warp_base, Pc pc, uint64_t first_step) {
  if (!compacted_) {
    // Without compaction the warps are the static ones.
    uint64_t step = first_step;
    for (size_t w = 0; w < active_.size(); ++w)
      if (active_[w])
        trace_->issued(
            TraceRecord{step++, 0, warp_base + static_cast<uint32_t>(w), 0, pc, active_[w]});
    return;
  }
  // Formed warp k of the CTA is reported as warp warp_base + k; its mask is
  // the home SIMD lanes it occupies.
  for (size_t k = 0; k < formed_warps_.size(); ++k) {
    LaneMask lanes = 0;
    const FormedWarp& fw = formed_warps_[k];
    for (size_t h = 0; h < fw.lane_thread.size(); ++h)
      if (fw.lane_thread[h] >= 0) lanes |= LaneMask(1) << h;
    trace_->issued(
        TraceRecord{first_step + k, 0, warp_base + static_cast<uint32_t>(k), 0, pc, lanes});
  }
}

void CompactingCtaRunner::synchronise(const CtaContext& cta, Pc pc) {
  size_t first = 0;
  while (event_.executed[first] == 0) ++first;
  if (barrier_id_ >= 16)
    issuer_.fault(*warp_ptrs_[first], cta, pc, lowest_lane(event_.executed[first]),
                  "barrier id " + std::to_string(barrier_id_) + " out of range 0..15");
  if (!issuer_.module().at(pc).sync)
    issuer_.fault(*warp_ptrs_[first], cta, pc, lowest_lane(event_.executed[first]),
                  "bar.arrive is not supported under thread block compaction: the block-wide "
                  "stack runs one path at a time, so a producer's arrival cannot meet a "
                  "consumer's wait");
  uint64_t arrived = 0;
  for (LaneMask m : event_.executed) arrived += lane_count(m);
  // As CtaBarriers counts: exited threads never arrive.
  const uint64_t expected = barrier_count_ ? barrier_count_ : cta_threads_;
  if (!barrier_ids_differ_ && arrived >= expected) {
    const Instruction& in = issuer_.module().at(pc);
    if (in.barrier_red == BarrierRed::None) return;
    uint64_t votes = 0;
    for (size_t w = 0; w < warp_ptrs_.size(); ++w)
      if (event_.executed[w]) votes += lane_count(barrier_votes_[w]);
    for (size_t w = 0; w < warp_ptrs_.size(); ++w)
      if (event_.executed[w])
        CtaBarriers::write_reduction(*warp_ptrs_[w], warp_ptrs_[w]->frames.size() - 1, in,
                                     event_.executed[w], votes, arrived);
    return;
  }
  // The threads the barrier waits for are on other paths of the block stack,
  // which cannot run before this one passes the barrier: a deadlock.
  for (size_t w = 0; w < warp_ptrs_.size(); ++w) {
    if (event_.executed[w] == 0) continue;
    Warp& warp = *warp_ptrs_[w];
    warp.at_barrier = true;
    warp.barrier_lanes = event_.executed[w];
    warp.barrier_id = barrier_id_;
    warp.barrier_pc = pc;
  }
  CtaBarriers::deadlock(warp_ptrs_, cta_threads_, issuer_, cta);
}

bool CompactingCtaRunner::split_sides() {
  bool taken = false, not_taken = false;
  for (size_t w = 0; w < active_.size(); ++w) {
    side_[w] = active_[w] & event_.executed[w];
    other_side_[w] = active_[w] & ~event_.executed[w];
    taken |= side_[w] != 0;
    not_taken |= other_side_[w] != 0;
  }
  return taken && not_taken;
}

void CompactingCtaRunner::note_paths(Pc pc, const BranchInfo& branch) {
  const unsigned threads = static_cast<unsigned>(cta_threads_);
  analysis_->measure(side_, path_counts_);
  analysis_->add_path(pc, branch.taint, true, threads, path_counts_);
  analysis_->measure(other_side_, path_counts_);
  analysis_->add_path(pc, branch.taint, false, threads, path_counts_);
}

bool CompactingCtaRunner::decide_compaction(Pc pc, RunStats& stats) {
  CompactionDecisions d;
  const bool compact = unit_->compact_paths(pc, side_, other_side_, d);
  add_decisions(d, stats);
  return compact;
}

}  // namespace warptlm
