// The SM's compaction part (CompactionIssue) on a test bench instead of an SM:
// a CompactionHost with its own warp slots, one CTA slot, fixed latencies and
// one attempt per slot per cycle. Kernels run to completion and match the
// functional executor under the same compaction; formed warps wait for each
// other at synchronisation points, a call waits for pending writes, CAPRI's
// bypasses run a static warp on its own, and a stalled set is reported.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "../exec/exec_test_util.h"
#include "exec/kernel_args.h"
#include "memory/device_memory.h"
#include "sm/compaction_issue.h"

namespace warptlm {
namespace {

using testing::i32_values;
using testing::one_buffer;

struct Latencies {
  unsigned unit = 1;       // an instruction's result, after its operands are read
  unsigned memory = 10;    // any memory access
  unsigned formation = 2;  // CompactionIssue::Params::warp_formation_cycles
};

// A host for one CTA slot whose CTAs run one after the other. Every slot is
// offered one attempt per cycle; shared resources and fetch never stall.
class CompactionBench final : public CompactionHost {
 public:
  CompactionBench(const std::string& ptx_body, const std::string& entry, LaunchSpec launch,
                  const ExecConfig& exec, Latencies latencies = {})
      : program_(finalize(parse_ptx(testing::ptx_module(ptx_body), "bench.ptx"))),
        kernel_(find_kernel(program_.module, entry)),
        launch_(std::move(launch)),
        exec_(exec),
        latencies_(latencies),
        layouts_(program_.module, exec.warp_size),
        operands_(program_.module),
        nwarps_((launch_.block.count() + exec.warp_size - 1) / exec.warp_size) {
    memory_.global = &global_;
    for (const HostBuffer& b : launch_.buffers) {
      addresses_.push_back(global_.allocate(b.bytes.size(), b.name));
      global_.write(addresses_.back(), b.bytes.data(), b.bytes.size());
    }
    memory_.params = build_param_buffer(program_.module, kernel_, launch_, addresses_);
    issuer_ = std::make_unique<WarpIssuer>(program_, kernel_, memory_, layouts_, "ipdom",
                                           uint64_t(1) << 30, exec.watchdog, exec.options);
    warps_ = std::vector<Warp>(nwarps_);
    scoreboards_.resize(nwarps_);
    done_.assign(nwarps_, true);
    ready_.assign(nwarps_, 0);
    for (unsigned i = 0; i < nwarps_; ++i) {
      slots_.push_back(i);
      warp_ptrs_.push_back(&warps_[i]);
    }
    compaction_ = std::make_unique<CompactionIssue>(
        *this, exec_,
        CompactionIssue::Params{7, exec.warp_size, latencies.formation, true, nwarps_, 1});
  }

  // CTA `linear` (x only) in the CTA slot.
  void start_cta(uint32_t linear) {
    context_.ctaid = Dim3{linear, 0, 0};
    context_.ntid = launch_.block;
    context_.nctaid = launch_.grid;
    context_.warps = nwarps_;
    context_.shared.assign(program_.module.shared_static_size + launch_.shared_bytes, 0);
    environment_ = std::make_unique<RecordingEnvironment>(program_.module, memory_, context_);
    for (unsigned i = 0; i < nwarps_; ++i) {
      issuer_->start_warp(warps_[i], i, launch_.block);
      scoreboards_[i].reset(static_cast<unsigned>(kernel_.regs.size()));
      ready_[i] = 0;
    }
    compaction_->start_cta(0);
  }

  // One cycle: due writebacks, deferred synchronisations, then one attempt
  // per slot in slot order. Returns whether the CTA is done.
  bool cycle() {
    while (!writebacks_.empty()) {
      auto due = std::min_element(writebacks_.begin(), writebacks_.end(),
                                  [](const Pending& a, const Pending& b) { return a.at < b.at; });
      if (due->at > now_) break;
      scoreboards_[due->owner].release(operands_.at(due->pc), due->lanes);
      writebacks_.erase(due);
    }
    compaction_->complete_pending_syncs(now_);
    note_syncs();
    bool all_done = true;
    for (unsigned slot = 0; slot < nwarps_; ++slot) {
      if (done_[slot]) continue;
      all_done = false;
      if (!enabled.empty() && !enabled[slot]) continue;
      IssueStall s;
      if (compaction_->bypassing(slot)) {
        ++bypass_attempts;
        s = compaction_->rejoin(slot, now_) ? IssueStall::Control : issue_bypass(slot);
      } else {
        s = compaction_->try_issue(0, slot, slot, now_);
      }
      stalls.push_back(s);
      note_syncs();
    }
    ++now_;
    return all_done && writebacks_.empty();
  }

  // Runs CTAs 0 .. grid.x-1; the bench's counts include every warp's.
  void run(uint64_t limit = 200000) {
    for (uint32_t c = 0; c < launch_.grid.x; ++c) {
      start_cta(c);
      while (!cycle())
        if (now_ > limit) throw std::runtime_error("bench: CTA " + std::to_string(c) + " hangs");
      for (Warp& w : warps_) WarpIssuer::add_counters(w, run_);
    }
  }

  std::vector<int32_t> buffer(size_t i) {
    HostBuffer b = launch_.buffers[i];
    global_.read(addresses_[i], b.bytes.data(), b.bytes.size());
    return i32_values(b);
  }

  CompactionIssue& compaction() { return *compaction_; }
  uint64_t now() const { return now_; }
  const SmStats& stats() const { return stats_; }
  const RunStats& counts() const { return run_; }

  struct Issue {
    uint64_t cycle;
    unsigned slot;
    Pc pc;
    LaneMask lanes;
  };
  std::vector<Issue> formed_issues, own_issues;
  std::vector<IssueStall> stalls;
  std::vector<uint64_t> sync_cycles;  // the cycle of each completed synchronisation
  unsigned bypass_attempts = 0;
  std::map<unsigned, unsigned> waits;  // slot_waits calls per slot
  std::vector<bool> enabled;           // the slots cycle() offers an attempt (empty: all)

  // CompactionHost.
  const Program& program() const override { return program_; }
  const OperandTable& operands() const override { return operands_; }
  WarpIssuer& issuer() override { return *issuer_; }
  KernelMemory& memory() override { return memory_; }
  SmStats& sm_stats() override { return stats_; }
  RunStats& launch_counts() override { return run_; }
  Slot slot(unsigned s) override { return {warps_[s], scoreboards_[s], 0}; }
  Cta cta(unsigned) override { return {slots_, warp_ptrs_, context_, *environment_}; }
  void set_done(unsigned slot, bool done) override { done_[slot] = done; }
  void deal(unsigned slot, uint64_t ready) override {
    ready_[slot] = std::max(ready_[slot], ready);
  }
  bool held(unsigned slot, uint64_t now) override { return ready_[slot] > now; }
  void unit_reset(unsigned) override {}
  void wake_at(uint64_t) override {}
  bool fetched(unsigned, Pc, uint64_t) override { return true; }
  IssueStall take_shared_resources(const Instruction&, const RegisterOperands&, unsigned,
                                   uint64_t now, uint64_t& ready) override {
    ready = now + 1;
    return IssueStall::Issued;
  }
  void scheduler_issued(unsigned, unsigned) override {}
  void slot_waits(unsigned slot) override { ++waits[slot]; }
  void issue_own(unsigned slot, const Path& p, uint64_t now, uint64_t operands_ready) override {
    Warp& w = warps_[slot];
    environment_->bind(&w);
    environment_->accesses.clear();
    const IssueResult r = issuer_->issue(w, p, context_, *environment_, run_);
    compaction_->note_executed(slot, r.outcome.executed);
    own_issues.push_back(Issue{now, slot, p.pc, p.mask});
    ++stats_.warp_instructions;
    stats_.thread_instructions += lane_count(p.mask);
    uint64_t wb = operands_ready + latencies_.unit;
    if (!environment_->accesses.empty()) wb = std::max(wb, now + latencies_.memory);
    if (r.called || r.returned)
      scoreboards_[slot].reset(
          static_cast<unsigned>(program_.module.functions[w.frames.back().function].regs.size()));
    else if (operands_.at(p.pc).n_writes)
      write_back(slot, p.pc, p.mask, wb);
  }
  uint64_t issue_formed(unsigned slot, const Instruction&, Pc pc, LaneMask lanes, const Warp&,
                        LaneMask, uint64_t now, uint64_t operands_ready) override {
    formed_issues.push_back(Issue{now, slot, pc, lanes});
    ready_[slot] = now + 1;
    return operands_ready + latencies_.unit;
  }
  uint64_t time_memory(unsigned, const Path&, const Instruction&, uint64_t now) override {
    return now + latencies_.memory;
  }
  void write_back(unsigned owner, Pc pc, LaneMask lanes, uint64_t cycle) override {
    ASSERT_NE(cycle, kNever);  // the bench's memory answers at a known cycle
    scoreboards_[owner].reserve(operands_.at(pc), lanes);
    writebacks_.push_back(Pending{cycle, owner, pc, lanes});
  }

 private:
  void note_syncs() {
    for (; seen_syncs_ < stats_.compaction_syncs; ++seen_syncs_) sync_cycles.push_back(now_);
  }

  // A bypassing slot's own turn: its reconvergence unit's first path whose
  // registers are ready.
  IssueStall issue_bypass(unsigned slot) {
    if (ready_[slot] > now_) return IssueStall::Control;
    std::vector<Path> paths;
    warps_[slot].simt->issuable(paths);
    for (const Path& p : paths) {
      if (scoreboards_[slot].blocked(operands_.at(p.pc), p.mask)) continue;
      issue_own(slot, p, now_, now_ + 1);
      ready_[slot] = now_ + 1;
      return IssueStall::Issued;
    }
    return IssueStall::Scoreboard;
  }

  struct Pending {
    uint64_t at;
    unsigned owner;
    Pc pc;
    LaneMask lanes;
  };
  Program program_;
  const Function& kernel_;
  LaunchSpec launch_;
  ExecConfig exec_;
  Latencies latencies_;
  RegisterLayouts layouts_;
  OperandTable operands_;
  unsigned nwarps_;
  DeviceMemory global_;
  KernelMemory memory_;
  std::vector<uint64_t> addresses_;
  std::unique_ptr<WarpIssuer> issuer_;
  std::vector<Warp> warps_;
  std::vector<Scoreboard> scoreboards_;
  std::vector<bool> done_;
  std::vector<uint64_t> ready_;
  std::vector<unsigned> slots_;
  std::vector<Warp*> warp_ptrs_;
  CtaContext context_;
  std::unique_ptr<RecordingEnvironment> environment_;
  std::vector<Pending> writebacks_;
  SmStats stats_;
  RunStats run_;
  uint64_t seen_syncs_ = 0;
  uint64_t now_ = 0;
  std::unique_ptr<CompactionIssue> compaction_;
};

ExecConfig compaction_config(const std::string& compaction, unsigned warp_size,
                             const std::string& permutation = "none") {
  ExecConfig c;
  c.warp_size = warp_size;
  c.compaction = compaction;
  c.permutation = permutation;
  return c;
}

// The functional executor's run of the same launch: outputs and counts.
testing::KernelRun functional(const std::string& ptx, const std::string& entry,
                              const LaunchSpec& launch, const ExecConfig& c) {
  return testing::run(ptx, entry, launch, c);
}

// out[t] = t * (t % 3) summed over a loop of t % 4 trips, then + 1 when t % 5
// is 0: a loop whose trip count diverges, and two divergent branches.
const char* const kLoops = R"(
.visible .entry loops(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  rem.u32 %r2, %r1, 4;
  rem.u32 %r3, %r1, 3;
  mul.lo.s32 %r4, %r1, %r3;
  mov.u32 %r5, 0;
  mov.u32 %r6, 0;
LOOP:
  setp.ge.u32 %p1, %r6, %r2;
  @%p1 bra DONE;
  add.s32 %r5, %r5, %r4;
  add.s32 %r6, %r6, 1;
  bra.uni LOOP;
DONE:
  rem.u32 %r7, %r1, 5;
  setp.ne.s32 %p2, %r7, 0;
  @%p2 bra STORE;
  add.s32 %r5, %r5, 1;
STORE:
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd3, %rd2, %rd3;
  st.global.u32 [%rd3], %r5;
  ret;
}
)";

std::vector<int32_t> loops_expected(unsigned threads) {
  std::vector<int32_t> v;
  for (unsigned t = 0; t < threads; ++t)
    v.push_back(static_cast<int32_t>(t * (t % 3) * (t % 4) + (t % 5 == 0 ? 1 : 0)));
  return v;
}

TEST(CompactionIssueBench, RunsAKernelAsTheFunctionalExecutorDoesUnderEachUnitAndPermutation) {
  const std::vector<std::pair<std::string, std::string>> settings = {
      {"tbc", "none"}, {"tbc", "balanced"}, {"ideal", "none"}, {"capri", "balanced"}};
  for (const auto& [unit, permutation] : settings) {
    SCOPED_TRACE(unit + "/" + permutation);
    const ExecConfig c = compaction_config(unit, 8, permutation);
    const LaunchSpec launch = one_buffer(1, 32, std::vector<int32_t>(32, -1));
    CompactionBench bench(kLoops, "loops", launch, c);
    bench.run();
    EXPECT_EQ(bench.buffer(0), loops_expected(32));
    const auto reference = functional(kLoops, "loops", launch, c);
    EXPECT_EQ(bench.counts().thread_instructions, reference.stats.thread_instructions);
    EXPECT_EQ(bench.counts().warp_instructions, reference.stats.warp_instructions);
    // Divergent branches formed new sets, and every set synchronised.
    EXPECT_GT(bench.stats().warp_formations, 1u);
    EXPECT_GT(bench.stats().compaction_syncs, 0u);
  }
}

TEST(CompactionIssueBench, FormedWarpsNameTheirStaticWarpsBySlotAndLane) {
  // Threads 0-11 take kDiverge's branch: lanes 0-3 carry two of them.
  CompactionBench bench(testing::kDiverge, "diverge",
                        one_buffer(1, 16, std::vector<int32_t>(16, 0)),
                        compaction_config("tbc", 8));
  bench.start_cta(0);
  unsigned checked = 0;
  while (!bench.cycle()) {
    for (unsigned slot = 0; slot < 2; ++slot) {
      const std::vector<WarpPiece>* pieces = bench.compaction().pieces(slot);
      if (!pieces || pieces->empty()) continue;
      const std::vector<int32_t>& lanes = bench.compaction().lane_threads(slot);
      // Each thread in a SIMD lane is in the piece of its static warp, at its
      // own lane (no permutation).
      for (size_t h = 0; h < lanes.size(); ++h) {
        if (lanes[h] < 0) continue;
        const unsigned warp = static_cast<unsigned>(lanes[h]) / 8, lane = lanes[h] % 8;
        EXPECT_EQ(lane, h);
        const auto piece = std::find_if(pieces->begin(), pieces->end(),
                                        [&](const WarpPiece& p) { return p.warp == warp; });
        ASSERT_NE(piece, pieces->end());
        EXPECT_TRUE((piece->lanes >> lane) & 1);
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 0u);
  EXPECT_EQ(bench.buffer(0),
            (std::vector<int32_t>{0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, -12, -13, -14, -15}));
}

TEST(CompactionIssueBench, AFormedWarpWaitsAtABranchUntilEveryFormedWarpArrives) {
  // Two static warps, one formed warp each until kDiverge's branch.
  CompactionBench bench(testing::kDiverge, "diverge",
                        one_buffer(1, 16, std::vector<int32_t>(16, 0)), compaction_config("tbc", 8),
                        Latencies{1, 10, 2});
  bench.start_cta(0);
  // Slot 0 alone: it issues up to the branch and then waits there.
  bench.enabled = {true, false};
  for (unsigned i = 0; i < 60; ++i) bench.cycle();
  EXPECT_EQ(bench.formed_issues.size(), 8u);  // seven instructions and the branch
  EXPECT_EQ(bench.stalls.back(), IssueStall::Control);
  EXPECT_EQ(bench.stats().compaction_syncs, 0u);
  // Offered while it waits, it tells the warp scheduler so (two_level gives
  // its place to a warp that can issue); slot 1 was never offered.
  EXPECT_GT(bench.waits[0], 0u);
  EXPECT_EQ(bench.waits.count(1), 0u);
  // Slot 1 catches up; its branch completes the synchronisation.
  const uint64_t first_arrival = bench.formed_issues.back().cycle;
  bench.enabled = {false, true};
  for (unsigned i = 0; i < 60 && bench.stats().compaction_syncs == 0; ++i) bench.cycle();
  ASSERT_EQ(bench.stats().compaction_syncs, 1u);
  // Slot 0 waited from its branch to slot 1's; slot 1 did not wait.
  const uint64_t second_arrival = bench.formed_issues.back().cycle;
  EXPECT_EQ(bench.stats().compaction_sync_cycles, second_arrival - first_arrival);
  EXPECT_EQ(bench.stats().warp_formations, 2u);  // the first set, then the taken side's
}

// A long-latency result, then a call that does not read it: the set arrives at
// the call at once, but the new frame waits until the write completes.
const char* const kCall = R"(
.func (.param .b32 r) triple(.param .b32 x)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [x];
  mul.lo.s32 %r2, %r1, 3;
  st.param.b32 [r], %r2;
  ret;
}
.visible .entry caller(.param .u64 out)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mul.lo.s32 %r5, %r1, 7;
  {
  .param .b32 a;
  st.param.b32 [a], %r1;
  .param .b32 b;
  call (b), triple, (a);
  ld.param.b32 %r2, [b];
  }
  add.s32 %r3, %r2, %r5;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd3, %rd2, %rd3;
  st.global.u32 [%rd3], %r3;
  ret;
}
)";

TEST(CompactionIssueBench, ACallWaitsForThePendingWritesOfItsSet) {
  const unsigned latency = 40;
  CompactionBench bench(kCall, "caller", one_buffer(1, 8, std::vector<int32_t>(8, 0)),
                        compaction_config("tbc", 8), Latencies{latency, 10, 0});
  bench.run();
  std::vector<int32_t> expected;
  for (int t = 0; t < 8; ++t) expected.push_back(t * 3 + t * 7);
  EXPECT_EQ(bench.buffer(0), expected);
  // The call is the set's first synchronisation: it completes only once the
  // writes issued before it (the last at the call's cycle - 1) are done.
  ASSERT_FALSE(bench.sync_cycles.empty());
  const auto call = std::find_if(bench.formed_issues.begin(), bench.formed_issues.end(),
                                 [&](const CompactionBench::Issue& i) {
                                   return bench.program().module.at(i.pc).op == Opcode::Call;
                                 });
  ASSERT_NE(call, bench.formed_issues.end());
  EXPECT_GE(bench.sync_cycles.front(), call->cycle - 1 + latency);
}

// kCapriMixed (exec_test_util.h): one branch; CAPRI predicts compaction for
// CTA 0 (no entry yet), not for CTA 1 (its counter is low after CTA 0), and
// again for CTA 2 (CTA 1's pattern was adequate after all).
using testing::kCapriMixed;

TEST(CompactionIssueBench, CapriBypassesRunStaticWarpsOnTheirOwnAndRejoin) {
  const ExecConfig c = compaction_config("capri", 8, "balanced");
  const LaunchSpec launch = one_buffer(3, 32, std::vector<int32_t>(96, 0));
  CompactionBench bench(kCapriMixed, "mixed", launch, c);
  bench.run();
  std::vector<int32_t> expected;
  for (int cta = 0; cta < 3; ++cta)
    for (int t = 0; t < 32; ++t) expected.push_back((cta == 0 ? t < 16 : t % 2 == 0) ? 2 : 1);
  EXPECT_EQ(bench.buffer(0), expected);
  // CTA 1 bypasses the branch: each of its four static warps issues the
  // branch and both sides (A: one instruction; the other: two) itself.
  EXPECT_EQ(bench.stats().capri_bypasses, 1u);
  EXPECT_EQ(bench.own_issues.size(), 16u);
  for (const CompactionBench::Issue& i : bench.own_issues) EXPECT_NE(i.lanes, 0u);
  EXPECT_GT(bench.bypass_attempts, 0u);
  const auto reference = functional(kCapriMixed, "mixed", launch, c);
  EXPECT_EQ(bench.counts().thread_instructions, reference.stats.thread_instructions);
  EXPECT_EQ(bench.counts().warp_instructions, reference.stats.warp_instructions);
  EXPECT_EQ(bench.counts().warp_instructions, 228u);  // 74 + 80 + 74, as test_capri_exec
}

TEST(CompactionIssueBench, AStalledSetOutsideABarrierIsAnError) {
  CompactionBench bench(testing::kDiverge, "diverge",
                        one_buffer(1, 16, std::vector<int32_t>(16, 0)),
                        compaction_config("tbc", 8));
  bench.start_cta(0);
  bench.enabled = {true, false};  // slot 1 never moves: slot 0 waits at the branch
  for (unsigned i = 0; i < 40; ++i) bench.cycle();
  EXPECT_NO_THROW(bench.compaction().check_stalled(0, /*at_barrier=*/true));
  try {
    bench.compaction().check_stalled(0, false);
    FAIL() << "no error";
  } catch (const std::logic_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("SM 7"), std::string::npos) << what;
    EXPECT_NE(what.find("1 of 2 formed warps"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace warptlm
