// What the SM's compaction part (CompactionIssue) needs of the SM that holds
// it: the launch, its warp slots and CTA slots by index, and the steps of the
// issue pipeline. SmCore implements it; a test bench implements it without an
// SM (tests/sm/test_compaction_issue.cc). Calls are virtual: they happen only
// under compaction, once or a few times per formed warp's issue.
#pragma once

#include <cstdint>
#include <vector>

#include "exec/cta_memory.h"
#include "exec/warp.h"
#include "exec/warp_issuer.h"
#include "frontend/program.h"
#include "sm/issue_stall.h"
#include "sm/recording_environment.h"
#include "sm/scoreboard/register_operands.h"
#include "sm/scoreboard/scoreboard.h"
#include "sm/sm_stats.h"

namespace warptlm {

class CompactionHost {
 public:
  // A warp slot: its static warp (whose registers its threads use), that
  // warp's scoreboard, and its CTA slot.
  struct Slot {
    Warp& warp;
    Scoreboard& scoreboard;
    unsigned cta;
  };
  // A CTA slot: its warps' slots and warps (in warp order), its context and
  // its environment (the recorded memory accesses of an issue).
  struct Cta {
    const std::vector<unsigned>& warp_slots;
    const std::vector<Warp*>& warps;
    CtaContext& context;
    RecordingEnvironment& environment;
  };

  virtual ~CompactionHost() = default;

  // The current launch.
  virtual const Program& program() const = 0;
  virtual const OperandTable& operands() const = 0;
  virtual WarpIssuer& issuer() = 0;
  virtual KernelMemory& memory() = 0;
  // The SM's statistics and the launch's counts, which compaction adds to.
  virtual SmStats& sm_stats() = 0;
  virtual RunStats& launch_counts() = 0;

  virtual Slot slot(unsigned slot) = 0;
  virtual Cta cta(unsigned cta) = 0;

  // The slot's issue gate.
  // done: the slot carries no more work and leaves once its writes complete.
  virtual void set_done(unsigned slot, bool done) = 0;
  // The slot carries a newly formed warp, which may issue from cycle `ready`.
  virtual void deal(unsigned slot, uint64_t ready) = 0;
  // Whether the slot may not issue at `now` yet (the SM then wakes when it may).
  virtual bool held(unsigned slot, uint64_t now) = 0;
  // The slot's static warp's own reconvergence unit was reset (a CAPRI
  // bypass starts): what the SM remembered of it is stale.
  virtual void unit_reset(unsigned slot) = 0;
  // The SM must tick at `cycle` even if nothing else wakes it.
  virtual void wake_at(uint64_t cycle) = 0;

  // The issue pipeline.
  // Whether the instruction at `pc` is in the slot's fetch buffer at `now`
  // (fetching it if not; the SM then wakes when it arrives).
  virtual bool fetched(unsigned slot, Pc pc, uint64_t now) = 0;
  // The execution unit, an MSHR for a memory instruction and an operand
  // collector with warp slot `bank_slot`'s register banks: Issued when all
  // are taken (`ready`: operands read), else the cause that stalls.
  virtual IssueStall take_shared_resources(const Instruction& in, const RegisterOperands& ops,
                                           unsigned bank_slot, uint64_t now, uint64_t& ready) = 0;
  // Scheduler `sched` issued its local slot `local`.
  virtual void scheduler_issued(unsigned sched, unsigned local) = 0;
  // Slot `slot`, offered an issue, cannot issue until its CTA's set is dealt
  // again (it waits at a synchronisation point, or holds no formed warp):
  // the warp scheduler hears of it as of a long-latency stall (two_level
  // gives its place to a warp that can issue).
  virtual void slot_waits(unsigned slot) = 0;
  // Issues path `p` of the slot's static warp under its own reconvergence
  // unit, as without compaction (a CAPRI bypass).
  virtual void issue_own(unsigned slot, const Path& p, uint64_t now, uint64_t operands_ready) = 0;
  // A formed warp in `slot` issues `in` for SIMD lanes `lanes` at `pc`: the
  // launch's instruction budget (charged to `first`, the first piece's static
  // warp and lanes), the trace, the slot's gate and the execution unit.
  // Returns the cycle the unit's result is ready. Throws KernelFault when the
  // budget is spent.
  virtual uint64_t issue_formed(unsigned slot, const Instruction& in, Pc pc, LaneMask lanes,
                                const Warp& first, LaneMask first_lanes, uint64_t now,
                                uint64_t operands_ready) = 0;
  // Times the accesses recorded in the slot's CTA environment for `p`;
  // returns the writeback cycle (kNever: the memory path writes back).
  virtual uint64_t time_memory(unsigned slot, const Path& p, const Instruction& in,
                               uint64_t now) = 0;
  // Reserves the registers `pc` writes for `lanes` of the static warp in
  // `owner`, written back at `cycle` (kNever: when its memory operation completes).
  virtual void write_back(unsigned owner, Pc pc, LaneMask lanes, uint64_t cycle) = 0;
};

}  // namespace warptlm
