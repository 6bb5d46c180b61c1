// The SM's thread block compaction part (any compaction but none): the
// formed warps and the bypasses of a selective compaction unit (CAPRI), with
// their state, apart from the warp slots every warp uses. The compaction unit
// (compaction/compaction_unit.h) forms the warps and makes the decisions.
//
// Each CTA runs under a block-wide reconvergence stack (CompactingCtaRunner)
// and its warp slots carry the warps compaction forms for the stack's top
// entry: slot k of the CTA carries formed warp k, while the slot's `warp` and
// `scoreboard` stay those of static warp k, whose registers they hold. Formed
// warps issue on their own through straight-line code; at a synchronisation
// point (a conditional branch, call, return, exit, barrier, warp-level
// operation, or the top entry's reconvergence pc) each waits until every
// formed warp of the set has arrived, the synchronising instruction then
// executes in lockstep for all their threads, the stack moves, and the next
// set is formed. Under a selective unit (CAPRI) a set of uncompacted warps
// reaching a branch the unit will not compact runs on instead: each static warp runs
// the branch's region under its own reconvergence unit (the SM's ordinary
// issue path), and the set meets again at the branch's reconvergence pc.
// docs/compaction.md ("Timing") gives the model and its choices.
//
// The SM calls it at a few points: when a CTA starts, when a slot's turn
// comes in the issue stage, before the issue stage (syncs waiting for writes
// to drain), when a memory instruction of a formed warp starts (its pieces),
// and when nothing can move (a stalled set). It works on the SM's warp slots,
// scoreboards and pipeline through the SM's CompactionHost interface.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "compaction/compaction_unit.h"
#include "compaction/cta_mask.h"
#include "compaction/warp_formation.h"
#include "exec/compacting_cta_runner.h"
#include "sm/compaction_host.h"
#include "sm/issue_stall.h"

namespace warptlm {

class CompactionIssue {
 public:
  struct Params {
    unsigned sm_id = 0;  // names the SM in errors
    unsigned warp_size = 32;
    unsigned warp_formation_cycles = 0;  // from a set's synchronisation to its new warps' issue
    bool sync_uniform_branches = true;   // false: CTA-uniform branches do not synchronise
    size_t warp_slots = 0, cta_slots = 0;
  };
  // One part per SM, for every launch (CAPRI's table lives as long as the
  // SM). `exec` names the compaction unit and its options; the CTAs' block
  // stacks keep a reference to it.
  CompactionIssue(CompactionHost& host, const ExecConfig& exec, const Params& params);

  // CTA slot `cta`'s warps are in their slots: its block stack starts and its
  // first set of warps is formed.
  void start_cta(unsigned cta);
  // Slot `slot`'s turn in scheduler `sched` (local index `local`). A slot
  // running a CAPRI bypass issues through the SM's own path: the SM asks
  // bypassing() first, and rejoin() on such a slot's turn.
  IssueStall try_issue(unsigned sched, unsigned local, unsigned slot, uint64_t now);
  bool bypassing(unsigned slot) const { return slots_[slot].bypass; }
  // A bypassing slot whose only path is at the bypassed branch's
  // reconvergence pc with all its remaining threads (or that has none left)
  // arrives there; returns whether.
  bool rejoin(unsigned slot, uint64_t now);
  // The lanes that executed the slot's last issue through the SM's path (a
  // bypassed branch's outcome).
  void note_executed(unsigned slot, LaneMask executed) { slots_[slot].executed = executed; }
  // Before the issue stage: a call or return whose set waited for its
  // CTA's pending register writes to drain.
  void complete_pending_syncs(uint64_t now);
  // The formed warp in `slot`, for a memory instruction it issues: its
  // pieces (static warps, by slot, and their lanes) and each SIMD lane's CTA
  // thread. Null when the slot runs a bypass (a static warp of its own).
  const std::vector<WarpPiece>* pieces(unsigned slot) const {
    return slots_[slot].bypass ? nullptr : &slots_[slot].pieces;
  }
  const std::vector<int32_t>& lane_threads(unsigned slot) const { return slots_[slot].lane_thread; }
  // Nothing in flight and nothing can issue: throws std::logic_error when CTA
  // `cta`'s set is stalled outside a barrier (the block stack detects barrier
  // deadlocks itself, except among warps that run a bypass on their own).
  void check_stalled(unsigned cta, bool at_barrier) const;

 private:
  // Per warp slot.
  struct Slot {
    bool formed = false;               // carries a formed warp now
    bool arrived = false;              // it waits at the CTA's synchronisation point
    bool bypass = false;               // CAPRI: its static warp runs a bypassed region alone
    Pc pc = 0;                         // its next instruction
    LaneMask lanes = 0;                // the home SIMD lanes it occupies
    std::vector<WarpPiece> pieces;     // per static warp (piece.warp: that warp's slot)
    std::vector<int32_t> lane_thread;  // per SIMD lane: CTA thread, or -1
    uint64_t arrived_at = 0;           // cycle it reached the synchronisation point
    uint64_t sleep_until = 0;          // nanosleep: first cycle it may issue again
    // CAPRI bypass: the lanes that executed the slot's last normal issue, the
    // lanes that took the bypassed branch, the static warp's exited lanes when
    // it started, and its threads' logical lanes.
    LaneMask executed = 0;
    LaneMask taken = 0;
    LaneMask exited_before = 0;
    LaneMask static_lanes = 0;
  };
  // Per CTA slot: the block stack and the state of its current set of warps.
  struct Cta {
    std::unique_ptr<CompactingCtaRunner> lockstep;
    unsigned formed = 0;               // formed warps in the current set
    unsigned arrived = 0;              // those waiting at the synchronisation point
    Pc sync_pc = 0;                    // where they wait
    bool sync_at_instruction = false;  // the point is an instruction they issued (else: the rpc)
    bool sync_pending = false;         // all arrived; a call/return waits for writes to drain
    uint64_t sync_ready = 0;           // the synchronising instruction's results are ready
    uint64_t formation_version = ~uint64_t(0);
    bool static_set = false;  // every formed warp is one whole static warp, in its slot
    bool bypassing = false;   // CAPRI: this set runs past the branch at bypass_pc
    Pc bypass_pc = 0, bypass_reconv = 0;
    std::vector<uint8_t> lane_of_thread;  // per CTA thread: its SIMD lane in its formed warp
    // Per static warp: the lowest lane it has in the current set (warp_size:
    // none). The piece holding it counts the static warp's branches.
    std::vector<uint8_t> leader_lane;
  };

  static bool synchronises(const Instruction& in, const Program& program, Pc pc,
                           bool sync_uniform_branches);
  // Deals the top entry's formed warps to the CTA's slots, ready at `ready`.
  void deal_formed_warps(unsigned cta, uint64_t ready);
  // CAPRI: whether the formed warp in `slot`, about to issue the conditional
  // branch `in` at its pc, runs past it (deciding for its set at the first
  // arrival); then starts its static warp's own reconvergence unit there.
  bool bypasses(unsigned slot, const Instruction& in);
  // Throws the issuer's KernelFault when a formed warp's pc is outside its
  // threads' function (fallen off its end); returns otherwise.
  void fault_outside_function(unsigned slot);
  void issue_formed(unsigned slot, const Instruction& in, uint64_t now, uint64_t operands_ready);
  void arrive(unsigned slot, Pc pc, bool at_instruction, uint64_t now);
  // Runs the synchronisation once all formed warps arrived (false: deferred
  // until pending writes drain before a call or return).
  bool complete_sync(unsigned cta, uint64_t now);
  // The synchronising instruction in lockstep, and its register effects:
  // new frames for a call or return, a warp-level operation's results.
  void step_synchronised(unsigned cta, bool frame_change, uint64_t now);

  CompactionHost& host_;
  const ExecConfig& exec_;
  const Params params_;
  std::vector<Slot> slots_;
  std::vector<Cta> ctas_;
  std::unique_ptr<CompactionUnit> unit_;  // the configured compaction's, for every CTA
  bool selective_;                        // unit_->selective(): CAPRI's bypasses
  // Reused by complete_sync and rejoin.
  std::vector<WarpPiece> piece_scratch_;
  std::vector<Path> path_scratch_;
  CtaMask taken_scratch_, exited_scratch_;
};

}  // namespace warptlm
