// Register-file bank conflicts seen end to end. Register r of the warp in
// slot w is in bank (r + w) % sm.register_banks, and a bank serves one read
// per cycle: an instruction whose two sources share a bank collects its
// operands a cycle later, and so writes back a cycle later.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "behaviour_support.h"
#include "common/systemc_child.h"

namespace warptlm::behaviour {
namespace {

using testing::in_child_process;

// mov r1; mov rB; add r3 = r1 + rB; add r4 = r3 + 1; exit. Registers are
// numbered in declaration order (%r0 .. %r5 are 0 .. 5).
std::string kernel(const std::string& a, const std::string& b) {
  return R"(
.visible .entry banks()
{
  .reg .b32 %r<6>;
  mov.u32 %r1, 1;
  mov.u32 %r5, 5;
  mov.u32 %r2, 2;
  add.u32 %r3, )" +
         a + ", " + b + R"(;
  add.u32 %r4, %r3, 1;
  exit;
}
)";
}

PlatformConfig four_banks() {
  PlatformConfig c = quiet_config();
  c.sm.register_banks = 4;
  return c;
}

TEST(RegisterBanks, TwoSourcesInOneBankCostACycle) {
  in_child_process([] {
    Result r = run(kernel("%r1", "%r5"), "banks", launch_of(1, 32), four_banks());
    // Warp slot 0: r1 and r5 are both in bank 1. Moves at 0, 1, 2 (r2 is
    // written at 6). The add waits for r5 (written at 1 + 4 = 5), reads bank
    // 1 at 5 and 6: operands ready at 7, one conflict cycle, writeback at
    // 5 + 4 + 1 = 10. The dependent add issues at 10, exit at 11.
    EXPECT_EQ(relative_issue_cycles(r, 0), (std::vector<uint64_t>{0, 1, 2, 5, 10, 11}));
    EXPECT_EQ(stat(r, "sm.register_bank_conflicts"), 1u);
    // Last writeback: the second add at 10 + 4 = 14.
    EXPECT_EQ(stat(r, "sm.cycles"), kFetchMiss + 14u + 1);
  });
}

TEST(RegisterBanks, SourcesInDifferentBanksAreReadTogether) {
  in_child_process([] {
    Result r = run(kernel("%r1", "%r2"), "banks", launch_of(1, 32), four_banks());
    // r1 in bank 1, r2 in bank 2: both read in the add's issue cycle. The
    // add waits for r2 (written at 2 + 4 = 6), writes back at 10; the
    // dependent add at 10, exit at 11, last writeback 14.
    EXPECT_EQ(relative_issue_cycles(r, 0), (std::vector<uint64_t>{0, 1, 2, 6, 10, 11}));
    EXPECT_EQ(stat(r, "sm.register_bank_conflicts"), 0u);
    EXPECT_EQ(stat(r, "sm.cycles"), kFetchMiss + 14u + 1);
  });
}

TEST(RegisterBanks, ARegisterReadTwiceIsOneRead) {
  in_child_process([] {
    Result r = run(kernel("%r5", "%r5"), "banks", launch_of(1, 32), four_banks());
    // r5 + r5 reads bank 1 once: add at 5 (r5 written), writeback 9; the
    // dependent add at 9, exit at 10, last writeback 13.
    EXPECT_EQ(relative_issue_cycles(r, 0), (std::vector<uint64_t>{0, 1, 2, 5, 9, 10}));
    EXPECT_EQ(stat(r, "sm.register_bank_conflicts"), 0u);
    EXPECT_EQ(stat(r, "sm.cycles"), kFetchMiss + 13u + 1);
  });
}

TEST(RegisterBanks, OneBankSerialisesEverySourceRead) {
  in_child_process([] {
    PlatformConfig c = quiet_config();
    c.sm.register_banks = 1;
    Result r = run(kernel("%r1", "%r2"), "banks", launch_of(1, 32), c);
    // One bank: r1 and r2 are read at 6 and 7, writeback 6 + 4 + 1 = 11.
    EXPECT_EQ(relative_issue_cycles(r, 0), (std::vector<uint64_t>{0, 1, 2, 6, 11, 12}));
    EXPECT_EQ(stat(r, "sm.register_bank_conflicts"), 1u);
  });
}

// Two warps on two schedulers issue the same add in the same cycle; warp
// slot 1's banks are shifted by one.
TEST(RegisterBanks, TheWarpSlotShiftsTheBanks) {
  in_child_process([] {
    PlatformConfig c = four_banks();
    c.sm.schedulers = 2;
    // add r1 + r2: slot 0 reads banks 1, 2; slot 1 reads banks 2, 3. Slot 0
    // (scheduler 0 goes first) takes bank 2 in the add's cycle, slot 1 reads
    // its r1 there a cycle later: one conflict in all, for warp 1 only.
    Result r = run(kernel("%r1", "%r2"), "banks", launch_of(1, 64), c);
    EXPECT_EQ(stat(r, "sm.register_bank_conflicts"), 1u);
    EXPECT_EQ(relative_issue_cycles(r, 0), (std::vector<uint64_t>{0, 1, 2, 6, 10, 11}));
    EXPECT_EQ(relative_issue_cycles(r, 1), (std::vector<uint64_t>{0, 1, 2, 6, 11, 12}));
  });
  in_child_process([] {
    PlatformConfig c = four_banks();
    c.sm.schedulers = 2;
    // add r1 + r5 at 5: slot 0 reads bank 1 twice (at 5 and 6), slot 1
    // bank 2 twice: one conflict each, two in all; both adds write back at
    // 5 + 4 + 1 = 10.
    Result r = run(kernel("%r1", "%r5"), "banks", launch_of(1, 64), c);
    EXPECT_EQ(stat(r, "sm.register_bank_conflicts"), 2u);
    EXPECT_EQ(relative_issue_cycles(r, 1), (std::vector<uint64_t>{0, 1, 2, 5, 10, 11}));
  });
}

}  // namespace
}  // namespace warptlm::behaviour
