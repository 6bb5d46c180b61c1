// CacheTags: LRU replacement order, dirty victims, probe vs access, invalidate,
// set indexing and parameter checks.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "cache/cache_tags.h"

namespace warptlm {
namespace {

// 256 bytes, 4 ways, 64-byte lines: one set of four ways, so every line competes.
constexpr uint64_t kA = 0x000, kB = 0x040, kC = 0x080, kD = 0x0c0, kE = 0x100, kF = 0x140;

TEST(CacheTags, Geometry) {
  CacheTags t(32 * 1024, 4, 128);
  EXPECT_EQ(t.sets(), 64u);  // 32768 / (4 * 128)
  EXPECT_EQ(t.line(), 128u);
  EXPECT_EQ(t.assoc(), 4u);
  EXPECT_EQ(t.line_address(0x12345), 0x12300u);  // low 7 bits cleared
  EXPECT_EQ(t.line_address(0x12300), 0x12300u);
}

TEST(CacheTags, EvictsLeastRecentlyUsed) {
  CacheTags t(256, 4, 64);
  for (uint64_t a : {kA, kB, kC, kD}) EXPECT_FALSE(t.fill(a).valid);  // invalid ways first
  // Use order now A B C D (A oldest). Touching A leaves B the oldest.
  EXPECT_TRUE(t.access(kA));
  CacheTags::Victim v = t.fill(kE);
  EXPECT_TRUE(v.valid);
  EXPECT_EQ(v.line_addr, kB);
  EXPECT_FALSE(v.dirty);
  // Order C D A E: next victims are C, then D.
  EXPECT_EQ(t.fill(kF).line_addr, kC);
  EXPECT_EQ(t.fill(kB).line_addr, kD);
  EXPECT_TRUE(t.probe(kA));
  EXPECT_FALSE(t.probe(kC));
  EXPECT_FALSE(t.probe(kD));
}

TEST(CacheTags, ProbeDoesNotUpdateLruButAccessDoes) {
  CacheTags t(256, 4, 64);
  for (uint64_t a : {kA, kB, kC, kD}) t.fill(a);
  EXPECT_TRUE(t.probe(kA));  // A stays the oldest
  EXPECT_EQ(t.fill(kE).line_addr, kA);

  CacheTags u(256, 4, 64);
  for (uint64_t a : {kA, kB, kC, kD}) u.fill(a);
  EXPECT_TRUE(u.access(kA));  // A becomes the newest, B the oldest
  EXPECT_EQ(u.fill(kE).line_addr, kB);
}

TEST(CacheTags, MissDoesNotAllocate) {
  CacheTags t(256, 4, 64);
  EXPECT_FALSE(t.access(kA));
  EXPECT_FALSE(t.probe(kA));
}

TEST(CacheTags, AnyAddressInTheLineNamesIt) {
  CacheTags t(256, 4, 64);
  t.fill(0x1234);
  EXPECT_TRUE(t.probe(0x1200));
  EXPECT_TRUE(t.probe(0x123f));
  EXPECT_FALSE(t.probe(0x1240));
}

TEST(CacheTags, DirtyVictims) {
  CacheTags t(256, 4, 64);
  t.fill(kA, /*dirty=*/true);
  t.fill(kB);
  t.fill(kC);
  t.fill(kD);
  t.mark_dirty(kC);
  t.mark_dirty(kF);  // absent: no effect, nothing installed
  EXPECT_FALSE(t.probe(kF));
  CacheTags::Victim v = t.fill(kE);  // A: written at fill
  EXPECT_EQ(v.line_addr, kA);
  EXPECT_TRUE(v.dirty);
  v = t.fill(kF);  // B: clean
  EXPECT_EQ(v.line_addr, kB);
  EXPECT_FALSE(v.dirty);
  v = t.fill(kA);  // C: marked dirty later
  EXPECT_EQ(v.line_addr, kC);
  EXPECT_TRUE(v.dirty);
}

TEST(CacheTags, RefillOfPresentLineKeepsDirtyAndEvictsNothing) {
  CacheTags t(256, 4, 64);
  for (uint64_t a : {kA, kB, kC, kD}) t.fill(a);
  t.mark_dirty(kA);
  EXPECT_FALSE(t.fill(kA).valid);  // already present: moves to most recent
  EXPECT_EQ(t.fill(kE).line_addr, kB);
  // Order C D A E; evict C and D, then A comes out still dirty.
  t.fill(kF);
  t.fill(kB);
  CacheTags::Victim v = t.fill(kC);
  EXPECT_EQ(v.line_addr, kA);
  EXPECT_TRUE(v.dirty);
}

TEST(CacheTags, DirtyBitsDoNotChangeTheLruOrder) {
  CacheTags t(256, 4, 64);
  t.fill(kA);
  t.fill(kB, /*dirty=*/true);
  t.fill(kC);
  t.fill(kD, /*dirty=*/true);
  t.mark_dirty(kA);  // still the oldest
  std::vector<uint64_t> lines;
  t.take_dirty(lines);  // cleaning keeps every line's place
  EXPECT_EQ(lines, (std::vector<uint64_t>{kA, kB, kD}));
  EXPECT_TRUE(t.access(kB));  // order A C D B
  CacheTags::Victim v = t.fill(kE);
  EXPECT_EQ(v.line_addr, kA);
  EXPECT_FALSE(v.dirty);
  t.fill(kC, /*dirty=*/true);  // present: most recent, dirty; order D B E C
  EXPECT_EQ(t.fill(kF).line_addr, kD);
  EXPECT_EQ(t.fill(kA).line_addr, kB);
  v = t.fill(kD);
  EXPECT_EQ(v.line_addr, kE);
  v = t.fill(kB);
  EXPECT_EQ(v.line_addr, kC);
  EXPECT_TRUE(v.dirty);
}

TEST(CacheTags, InvalidateFreesTheWay) {
  CacheTags t(256, 4, 64);
  for (uint64_t a : {kA, kB, kC, kD}) t.fill(a);
  t.mark_dirty(kC);
  t.invalidate(kC);
  EXPECT_FALSE(t.probe(kC));
  EXPECT_FALSE(t.access(kC));
  EXPECT_FALSE(t.fill(kE).valid);  // reuses C's way: no eviction, and C's dirt is gone
  EXPECT_EQ(t.fill(kF).line_addr, kA);
  t.invalidate(0x4000);  // absent: no effect
  EXPECT_TRUE(t.probe(kB));
}

TEST(CacheTags, ClearEmptiesEverything) {
  CacheTags t(256, 4, 64);
  for (uint64_t a : {kA, kB, kC, kD}) t.fill(a, true);
  t.clear();
  for (uint64_t a : {kA, kB, kC, kD}) EXPECT_FALSE(t.probe(a));
  for (uint64_t a : {kA, kB, kC, kD}) EXPECT_FALSE(t.fill(a).valid);
}

TEST(CacheTags, LowBitsPickTheSet) {
  // 512 bytes, 2 ways, 64-byte lines: 4 sets; set = line number mod 4.
  CacheTags t(512, 2, 64);
  // Lines 0, 4 and 8 (addresses 0, 256, 512) all fall in set 0.
  t.fill(0);
  t.fill(256);
  t.fill(64);  // set 1: does not disturb set 0
  CacheTags::Victim v = t.fill(512);
  EXPECT_TRUE(v.valid);
  EXPECT_EQ(v.line_addr, 0u);
  EXPECT_TRUE(t.probe(64));
}

TEST(CacheTags, XorIndexSpreadsPowerOfTwoStrides) {
  // Same geometry, XOR index: set = (n ^ (n >> 2)) & 3 for line number n.
  // n = 0 -> 0, n = 4 -> 4 ^ 1 = 5 -> 1, n = 8 -> 8 ^ 2 = 10 -> 2, n = 12 -> 12 ^ 3 = 15 -> 3:
  // the stride-256 lines that thrash set 0 above land in four different sets.
  CacheTags t(512, 2, 64, CacheTags::SetIndex::Xor);
  for (uint64_t a : {0, 256, 512, 768}) EXPECT_FALSE(t.fill(a).valid);
  for (uint64_t a : {0, 256, 512, 768}) EXPECT_TRUE(t.probe(a));
  // n = 5 -> 5 ^ 1 = 4 -> set 0, shared with n = 0; n = 10 -> 10 ^ 2 = 8 -> set 0 too.
  EXPECT_FALSE(t.fill(320).valid);       // set 0: second way
  EXPECT_EQ(t.fill(640).line_addr, 0u);  // set 0 full: evicts line 0, its oldest
}

void expect_invalid(uint64_t size, unsigned assoc, unsigned line, const std::string& param) {
  try {
    CacheTags t(size, assoc, line);
    ADD_FAILURE() << "no exception for " << param;
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind(param + ":", 0), 0u) << e.what();
  }
}

TEST(CacheTags, RejectsBadGeometry) {
  expect_invalid(384, 2, 64, "size");  // 3 sets
  expect_invalid(0, 2, 64, "size");
  expect_invalid(100, 2, 64, "size");  // not a whole number of sets
  expect_invalid(512, 2, 48, "line");
  expect_invalid(512, 0, 64, "assoc");
  EXPECT_NO_THROW(CacheTags(192, 3, 64));  // one set of three ways is fine
}

// 16 ways and more go through the hash index instead of a scan of the set:
// one 16-way set of 64-byte lines, filled with lines 0..15 (addresses l * 64).
TEST(CacheTags, WideSetsKeepLruThroughTheIndex) {
  CacheTags c(16 * 64, 16, 64);
  for (uint64_t l = 0; l < 16; ++l) EXPECT_FALSE(c.fill(l * 64).valid);  // invalid ways first
  EXPECT_TRUE(c.access(0));  // line 0 becomes the most recent: line 1 is now the LRU
  CacheTags::Victim v = c.fill(16 * 64);
  EXPECT_TRUE(v.valid);
  EXPECT_EQ(v.line_addr, 1u * 64);
  EXPECT_FALSE(c.probe(1 * 64));
  EXPECT_TRUE(c.probe(0));
  EXPECT_TRUE(c.probe(16 * 64 + 63));  // any byte of the line
  // An invalidated way is reused before any eviction: no victim.
  c.invalidate(5 * 64);
  EXPECT_FALSE(c.probe(5 * 64));
  EXPECT_FALSE(c.fill(17 * 64).valid);
  EXPECT_TRUE(c.probe(17 * 64));
  // The LRU is now line 2 (fills 0, 2..15 in order, then 0 touched, 16, 17).
  v = c.fill(18 * 64);
  EXPECT_EQ(v.line_addr, 2u * 64);
  c.clear();
  for (uint64_t l = 0; l < 19; ++l) EXPECT_FALSE(c.probe(l * 64));
}

}  // namespace
}  // namespace warptlm
