// coalesce(): segments touched by unit-stride, strided, scattered, misaligned
// and partially active warp accesses.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "sm/ldst/coalescer.h"

namespace warptlm {
namespace {

using Segs = std::vector<uint64_t>;

// Lane l accesses base + l * stride.
std::vector<uint64_t> strided(uint64_t base, uint64_t stride, unsigned lanes = 32) {
  std::vector<uint64_t> a(lanes);
  for (unsigned l = 0; l < lanes; ++l) a[l] = base + l * stride;
  return a;
}

TEST(Coalescer, UnitStrideWarpIsTwoLinesOf64) {
  // 32 lanes x 4 bytes from 0x1000: bytes 0x1000..0x107f = lines 0x1000 and 0x1040.
  std::vector<uint64_t> a = strided(0x1000, 4), out;
  coalesce(a.data(), full_mask(32), 32, 4, 64, out);
  EXPECT_EQ(out, (Segs{0x1000, 0x1040}));
  coalesce(a.data(), full_mask(32), 32, 4, 128, out);  // one 128-byte segment
  EXPECT_EQ(out, (Segs{0x1000}));
}

TEST(Coalescer, StridedAccesses) {
  std::vector<uint64_t> out;
  // Stride 8 bytes: 256 bytes from 0 = lines 0, 64, 128, 192.
  std::vector<uint64_t> a = strided(0, 8);
  coalesce(a.data(), full_mask(32), 32, 4, 64, out);
  EXPECT_EQ(out, (Segs{0, 64, 128, 192}));
  // Stride 64 bytes (one lane per line): 32 lines, in lane order.
  a = strided(0x2000, 64);
  coalesce(a.data(), full_mask(32), 32, 4, 64, out);
  ASSERT_EQ(out.size(), 32u);
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(out[l], 0x2000 + 64u * l);
}

TEST(Coalescer, ScatteredOrderedByLowestLane) {
  // Lanes 0..3 hit lines 0x300, 0x100, 0x300, 0x200: first touch order 0x300, 0x100, 0x200.
  std::vector<uint64_t> a = {0x310, 0x104, 0x33c, 0x200}, out;
  coalesce(a.data(), full_mask(4), 4, 4, 64, out);
  EXPECT_EQ(out, (Segs{0x300, 0x100, 0x200}));
}

TEST(Coalescer, RunsOfOneSegmentAndReturnsToEarlierOnes) {
  // Lanes 0-1 in 0x100, lane 2 crosses 0x13c..0x143 into 0x140, lane 3 stays
  // in 0x140 (the last one found), lane 4 returns to 0x100, lanes 5-6 in 0x180,
  // lane 7 in 0x140 again: each segment once, in first-touch order.
  std::vector<uint64_t> a = {0x100, 0x108, 0x13c, 0x144, 0x110, 0x180, 0x188, 0x150}, out;
  coalesce(a.data(), full_mask(8), 8, 8, 64, out);
  EXPECT_EQ(out, (Segs{0x100, 0x140, 0x180}));
  // Without lane 2 the run of 0x100 ends at lane 3.
  coalesce(a.data(), full_mask(8) & ~LaneMask(4), 8, 8, 64, out);
  EXPECT_EQ(out, (Segs{0x100, 0x140, 0x180}));
}

TEST(Coalescer, SameAddressIsOneSegment) {
  std::vector<uint64_t> a(32, 0x5008), out;
  coalesce(a.data(), full_mask(32), 32, 8, 64, out);
  EXPECT_EQ(out, (Segs{0x5000}));
}

TEST(Coalescer, MisalignedAccessCrossesIntoNextSegment) {
  // An 8-byte access at 0x3c covers 0x3c..0x43: lines 0 and 0x40.
  std::vector<uint64_t> a = {0x3c}, out;
  coalesce(a.data(), 1, 1, 8, 64, out);
  EXPECT_EQ(out, (Segs{0, 0x40}));
  // A unit-stride warp shifted by 4 bytes: bytes 0x04..0x83 span lines 0, 0x40, 0x80.
  a = strided(4, 4);
  coalesce(a.data(), full_mask(32), 32, 4, 64, out);
  EXPECT_EQ(out, (Segs{0, 0x40, 0x80}));
  // A 16-byte access larger than a 8-byte segment touches every segment it spans: 0x10..0x1f.
  a = {0x10};
  coalesce(a.data(), 1, 1, 16, 8, out);
  EXPECT_EQ(out, (Segs{0x10, 0x18}));
}

TEST(Coalescer, InactiveLanesAreIgnored) {
  // Unit stride, only odd lanes 17..31 active: bytes 0x44..0x7f, one line at 0x40.
  std::vector<uint64_t> a = strided(0, 4), out = {1, 2, 3};
  LaneMask odd_high = 0;
  for (unsigned l = 17; l < 32; l += 2) odd_high |= LaneMask(1) << l;
  coalesce(a.data(), odd_high, 32, 4, 64, out);
  EXPECT_EQ(out, (Segs{0x40}));
  coalesce(a.data(), 0, 32, 4, 64, out);
  EXPECT_TRUE(out.empty());
  // Mask bits at or past warp_size are not lanes: lane 4 would touch 0x40.
  coalesce(a.data(), 0x1f | (LaneMask(1) << 16), 4, 4, 64, out);
  EXPECT_EQ(out, (Segs{0}));
}

TEST(Coalescer, SixtyFourLaneWarp) {
  std::vector<uint64_t> a = strided(0, 4, 64), out;
  coalesce(a.data(), full_mask(64), 64, 4, 128, out);
  EXPECT_EQ(out, (Segs{0, 128}));  // 256 bytes
}

TEST(Coalescer, RejectsBadParameters) {
  std::vector<uint64_t> a(32, 0), out;
  EXPECT_THROW(coalesce(a.data(), 1, 32, 4, 48, out), std::invalid_argument);  // segment
  EXPECT_THROW(coalesce(a.data(), 1, 32, 4, 0, out), std::invalid_argument);   // segment
  EXPECT_THROW(coalesce(a.data(), 1, 32, 0, 64, out), std::invalid_argument);  // size
  EXPECT_THROW(coalesce(a.data(), 1, 65, 4, 64, out), std::invalid_argument);  // warp_size
  EXPECT_THROW(coalesce(a.data(), 1, 0, 4, 64, out), std::invalid_argument);   // warp_size
}

}  // namespace
}  // namespace warptlm
