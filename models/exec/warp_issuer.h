// Issuing one warp instruction exactly: execute it through the semantics,
// maintain the warp's call frames, count it, and apply its control effect to
// the warp's reconvergence unit. The functional executor and the timing
// model's SMs both issue through this class, so they cannot disagree; what
// they add is only when (the order of warps and the timing of results).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "exec/cta_memory.h"
#include "exec/functional_executor.h"
#include "exec/run_stats.h"
#include "exec/warp.h"
#include "exec/warp_environment.h"
#include "frontend/hex_text.h"
#include "frontend/program.h"
#include "semantics/register_file.h"

namespace warptlm {

// What one issued instruction did.
struct IssueResult {
  const Instruction* instruction = nullptr;
  Outcome outcome;
  // Call frames that completed (the warp now runs in the caller).
  unsigned returned = 0;
  bool called = false;                 // a new frame was pushed
  const BranchInfo* branch = nullptr;  // a bra: the finalizer's facts about it (if known)
};

class WarpIssuer {
 public:
  // Every warp has layouts.warp_size lanes, its frames laid out by `layouts`
  // (of program.module; kept by reference), and gets a unit of scheme
  // `reconvergence` built with its options from `options`
  // (ExecConfig::options). `instruction_budget` is the
  // launch's (check_budget), `watchdog` each warp's (ExecConfig::watchdog).
  WarpIssuer(const Program& program, const Function& kernel, KernelMemory& memory,
             const RegisterLayouts& layouts, const std::string& reconvergence,
             uint64_t instruction_budget, uint64_t watchdog, const OptionValues& options = {});

  // Sets up warp `index` of a CTA with `block` threads: lanes, thread ids,
  // reconvergence unit, the kernel's frame, barrier state and issue count (a
  // warp that ran before keeps only its vectors' storage).
  void start_warp(Warp& w, uint32_t index, const Dim3& block) const;

  // Issues path `p` (one of w.simt->issuable()) of warp `w` in CTA `cta`.
  // `env` is the warp's environment (bound to `w`). Updates `stats`, except
  // for the scheme's own counters, which add_counters() adds. A barrier's
  // arrival is the caller's business (outcome.control == Barrier with
  // executed lanes). Throws KernelFault.
  IssueResult issue(Warp& w, const Path& p, CtaContext& cta, WarpEnvironment& env,
                    RunStats& stats) const;

  // A straight run (the functional executor's fast path): issues path `p` of
  // `w` from p.pc on, one instruction after another, exactly as issue()
  // would, while each has no control effect (every opcode but bra, call, ret,
  // exit, trap, bar, membar, nanosleep and the markers) or is a pre-decoded
  // branch that all of the path's lanes take the same way; it stops before
  // any other instruction, when the pc becomes `stop`, or after `max`
  // instructions.
  // `issuable`: the paths the warp offers (RunStats::note_issuable), which a
  // straight run leaves as they are. Leaves w.simt alone: returns how many
  // issued and sets `*pc` to where the path is now, for
  // ReconvergenceUnit::move_straight(). Throws KernelFault (the watchdog and
  // the budget, as issue()).
  unsigned issue_straight(Warp& w, const Path& p, Pc stop, unsigned max, size_t issuable,
                          CtaContext& cta, WarpEnvironment& env, RunStats& stats, Pc* pc) const;

  // The parts of issue(), for executors that drive control flow themselves
  // (thread block compaction runs one CTA-wide path as per-warp pieces):
  // execute_path() executes path `p` of `w` for its functional effect only
  // (registers, memory, the call's new frame, exits, faults; w.issued) and
  // fills `ev` with its control effect; it counts nothing and leaves w.simt
  // alone. Throws KernelFault.
  IssueResult execute_path(Warp& w, const Path& p, CtaContext& cta, WarpEnvironment& env,
                           ControlEvent& ev) const;
  // The runaway-kernel fault, at `pc` of `w`, once stats.warp_instructions
  // exceeds the instruction budget.
  // Inline: it runs for every issued instruction; the fault is out of line.
  void check_budget(const Warp& w, const CtaContext& cta, Pc pc, LaneMask mask,
                    const RunStats& stats) const {
    if (stats.warp_instructions > instruction_budget_) budget_fault(w, cta, pc, mask);
  }
  // Adds the counters of w.simt (ReconvergenceCounters: cumulative since its
  // reset()) to `stats` once, if issue() advanced it since the last call.
  // Whoever issues calls it when the warp ends and before resetting its unit;
  // the sums are those of every issue's own part, the peaks the same maxima.
  static void add_counters(Warp& w, RunStats& stats);
  // Counts a conditional branch (or a guarded emask.defer) that path lanes
  // `active` issued, and whether they went both ways, into stats.branches /
  // divergent_branches.
  static void count_branch(const IssueResult& r, LaneMask active, RunStats& stats);
  // Carries out a call of the runtime's `callee` (vprintf, __assertfail) for
  // lanes `lanes` of `w`, in lane order: printf's text goes to
  // KernelMemory::console, a failed assert faults.
  void system_call(Warp& w, const CtaContext& cta, Pc pc, const Instruction& call,
                   const Function& callee, LaneMask lanes, WarpEnvironment& env) const;
  // Drops the `frames` innermost call frames of `w` (calls that completed),
  // copying their return values into the caller.
  void complete_frames(Warp& w, unsigned frames) const;

  // Throws the KernelFault for lane `lane` of `w` at `pc`, with the site fields.
  [[noreturn]] void fault(const Warp& w, const CtaContext& cta, Pc pc, unsigned lane,
                          const std::string& what, const MemoryFault* memory = nullptr) const;

  const Module& module() const { return module_; }
  const Function& kernel() const { return kernel_; }

 private:
  // `storage`: a frame whose vectors are reused (their contents are not).
  void push_frame(Warp& w, const CtaContext& cta, uint32_t function, Pc call_pc, LaneMask lanes,
                  Frame&& storage) const;
  void pop_frame(Warp& w) const;
  [[noreturn]] void budget_fault(const Warp& w, const CtaContext& cta, Pc pc, LaneMask mask) const;
  [[noreturn]] void watchdog_fault(const Warp& w, const CtaContext& cta, Pc pc,
                                   LaneMask mask) const;

  const Program& program_;
  const Module& module_;
  const Function& kernel_;
  KernelMemory& memory_;
  const RegisterLayouts& layouts_;
  std::string reconvergence_;
  ComponentOptions scheme_options_;  // of `reconvergence_`
  uint64_t instruction_budget_;
  uint64_t watchdog_;
  // Executes `in` at `pc` of `w` (in `frame`) for lanes `mask` through its
  // pre-decoded handler `d` when it has one, else the semantics, a fault in it
  // reported at `pc`.
  Outcome execute_at(const Warp& w, const Frame& frame, const Instruction& in, Pc pc, LaneMask mask,
                     CtaContext& cta, WarpEnvironment& env,
                     const PredecodedInstruction* d = nullptr) const;

  // How issue_straight() may issue an instruction: not at all (control, a
  // marker, or written by the exec-mask lowering: issue() counts those),
  // through its pre-decoded handler (one that cannot fault), or through
  // execute_at() (the semantics or a load's or store's handler), where Visible
  // is what another thread could see (the watchdog's progress).
  enum class Straight : uint8_t { No, Predecoded, Executed, Visible };
  std::vector<Straight> straight_;  // per instruction
};

// Small helpers shared by the executors' messages (hex_string: frontend/hex_text.h).
std::string dim_string(const Dim3& d);
// A SWAR population count, inline: the build targets baseline x86-64
// without POPCNT, where std::bitset::count and __builtin_popcountll are a
// call into libgcc, and this runs once per issued instruction.
inline unsigned lane_count(LaneMask m) {
  m = m - ((m >> 1) & 0x5555555555555555ull);
  m = (m & 0x3333333333333333ull) + ((m >> 2) & 0x3333333333333333ull);
  m = (m + (m >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return static_cast<unsigned>((m * 0x0101010101010101ull) >> 56);
}
unsigned lowest_lane(LaneMask m);

}  // namespace warptlm
