// InstructionCache: hit and miss timing, misses merged into an in-flight fill,
// lines installed at arrival, LRU eviction and parameter checks.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "sm/fetch/instruction_cache.h"

namespace warptlm {
namespace {

TEST(InstructionCache, MissThenHitAndMergedMiss) {
  InstructionCache ic(256, 2, 64, 20);  // 2 sets of 2 ways, 64-byte lines (8 instructions)
  bool hit = true;
  EXPECT_EQ(ic.fetch(0x0, 100, hit), 120u);  // cold miss: 100 + 20
  EXPECT_FALSE(hit);
  EXPECT_EQ(ic.fetch(0x8, 105, hit), 120u);  // same line, fill in flight: same arrival
  EXPECT_FALSE(hit);
  EXPECT_EQ(ic.fetch(0x0, 119, hit), 120u);  // one cycle early: still waiting
  EXPECT_FALSE(hit);
  EXPECT_EQ(ic.fetch(0x0, 120, hit), 120u);  // installed at 120
  EXPECT_TRUE(hit);
  EXPECT_EQ(ic.fetch(0x38, 121, hit), 121u);  // last instruction of the line
  EXPECT_TRUE(hit);
  EXPECT_EQ(ic.fetch(0x40, 121, hit), 141u);  // next line: its own fill
  EXPECT_FALSE(hit);
  EXPECT_EQ(ic.hits(), 2u);
  EXPECT_EQ(ic.misses(), 4u);
  EXPECT_EQ(ic.fills(), 2u);
}

TEST(InstructionCache, LinesInstallAtArrivalWithLruEviction) {
  // Lines 0x000, 0x080, 0x100 (line numbers 0, 2, 4) share set 0 of 2 ways.
  InstructionCache ic(256, 2, 64, 10);
  bool hit = false;
  EXPECT_EQ(ic.fetch(0x000, 0, hit), 10u);
  EXPECT_EQ(ic.fetch(0x080, 0, hit), 10u);  // two fills in flight at once
  EXPECT_EQ(ic.fetch(0x000, 10, hit), 10u);
  EXPECT_TRUE(hit);
  EXPECT_EQ(ic.fetch(0x080, 11, hit), 11u);  // 0x080 most recent, 0x000 the LRU
  EXPECT_TRUE(hit);
  EXPECT_EQ(ic.fetch(0x100, 12, hit), 22u);  // miss; arrives at 22
  EXPECT_FALSE(hit);
  // Until 0x100 arrives nothing is evicted: 0x000 still hits and becomes most recent.
  EXPECT_EQ(ic.fetch(0x000, 15, hit), 15u);
  EXPECT_TRUE(hit);
  // At 22 0x100 is installed over the LRU way, now 0x080.
  EXPECT_EQ(ic.fetch(0x100, 22, hit), 22u);
  EXPECT_TRUE(hit);
  EXPECT_EQ(ic.fetch(0x000, 23, hit), 23u);
  EXPECT_TRUE(hit);
  EXPECT_EQ(ic.fetch(0x080, 24, hit), 34u);
  EXPECT_FALSE(hit);
  // Set 1 (line 0x040) was never disturbed by set 0's traffic.
  EXPECT_EQ(ic.fetch(0x040, 24, hit), 34u);
  EXPECT_EQ(ic.fills(), 5u);
}

TEST(InstructionCache, RepeatedHitsAndInstallsKeepTheLruOrder) {
  // Lines A 0x000, B 0x080, D 0x100 share set 0 of 2 ways; C 0x040 is in set 1.
  // Repeated hits on one line skip the tag lookup; once another line was
  // installed, the next hit on it must be a real LRU update.
  InstructionCache ic(256, 2, 64, 10);
  bool hit = false;
  EXPECT_EQ(ic.fetch(0x000, 0, hit), 10u);  // A
  EXPECT_EQ(ic.fetch(0x000, 10, hit), 10u);
  EXPECT_TRUE(hit);
  EXPECT_EQ(ic.fetch(0x008, 10, hit), 10u);  // A again, same cycle
  EXPECT_TRUE(hit);
  EXPECT_EQ(ic.fetch(0x080, 11, hit), 21u);  // B: miss, installed at 21
  EXPECT_FALSE(hit);
  EXPECT_EQ(ic.fetch(0x010, 20, hit), 20u);  // A, before B arrives
  EXPECT_TRUE(hit);
  EXPECT_EQ(ic.fetch(0x040, 21, hit), 31u);  // C misses; B is installed meanwhile
  EXPECT_FALSE(hit);
  EXPECT_EQ(ic.fetch(0x018, 22, hit), 22u);  // A: now more recent than B
  EXPECT_TRUE(hit);
  EXPECT_EQ(ic.fetch(0x100, 23, hit), 33u);  // D evicts set 0's LRU way, B
  EXPECT_FALSE(hit);
  EXPECT_EQ(ic.fetch(0x020, 33, hit), 33u);  // A survived D's install
  EXPECT_TRUE(hit);
  EXPECT_EQ(ic.fetch(0x080, 34, hit), 44u);  // B is gone
  EXPECT_FALSE(hit);
  EXPECT_EQ(ic.hits(), 5u);
  EXPECT_EQ(ic.misses(), 5u);
  try {
    ic.fetch(0x020, 33, hit);  // the fast path checks time too
    ADD_FAILURE();
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("now:", 0), 0u);
  }
}

TEST(InstructionCache, ZeroLatencyMissIsAvailableAtOnce) {
  InstructionCache ic(128, 1, 64, 0);
  bool hit = true;
  EXPECT_EQ(ic.fetch(0x10, 5, hit), 5u);
  EXPECT_FALSE(hit);
  EXPECT_EQ(ic.fetch(0x10, 5, hit), 5u);
  EXPECT_TRUE(hit);
}

TEST(InstructionCache, TimeMustNotGoBack) {
  InstructionCache ic(256, 2, 64, 20);
  bool hit;
  ic.fetch(0, 50, hit);
  ic.fetch(0, 50, hit);  // same cycle is fine (several warps fetch per cycle)
  try {
    ic.fetch(0, 49, hit);
    ADD_FAILURE();
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("now:", 0), 0u);
  }
}

TEST(InstructionCache, RejectsBadGeometry) {
  try {
    InstructionCache ic(64, 2, 4, 20);  // a 4-byte line cannot hold an instruction
    ADD_FAILURE();
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("line:", 0), 0u);
  }
  try {
    InstructionCache ic(384, 2, 64, 20);  // 3 sets
    ADD_FAILURE();
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("size:", 0), 0u);
  }
}

}  // namespace
}  // namespace warptlm
