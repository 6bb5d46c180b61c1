// shared_access_cycles(): conflict degree of strided, broadcast and wide
// shared-memory accesses with 32 four-byte banks.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "sm/ldst/shared_banks.h"

namespace warptlm {
namespace {

std::vector<uint64_t> strided(uint64_t base, uint64_t stride, unsigned lanes = 32) {
  std::vector<uint64_t> a(lanes);
  for (unsigned l = 0; l < lanes; ++l) a[l] = base + l * stride;
  return a;
}

unsigned cycles32(const std::vector<uint64_t>& a, unsigned size, LaneMask active = full_mask(32)) {
  return shared_access_cycles(a.data(), active, 32, size, 32);
}

TEST(SharedBanks, WordStridesGiveConflictDegrees) {
  // Stride s words: lane l uses word s*l, bank (s*l) % 32. The 32 lanes fall into
  // 32 / gcd(s, 32) banks, gcd(s, 32) distinct words each.
  EXPECT_EQ(cycles32(strided(0, 4), 4), 1u);      // s = 1: every lane its own bank
  EXPECT_EQ(cycles32(strided(0, 8), 4), 2u);      // s = 2: 16 even banks, 2 words each
  EXPECT_EQ(cycles32(strided(0, 16), 4), 4u);     // s = 4: 8 banks, 4 words each
  EXPECT_EQ(cycles32(strided(0, 128), 4), 32u);   // s = 32: all in bank 0
  EXPECT_EQ(cycles32(strided(0, 12), 4), 1u);     // s = 3: odd stride, conflict free
  EXPECT_EQ(cycles32(strided(0x400, 4), 4), 1u);  // base offset changes nothing
}

TEST(SharedBanks, BroadcastSharesOneAccess) {
  EXPECT_EQ(cycles32(std::vector<uint64_t>(32, 0x40), 4), 1u);  // all lanes one word
  // Lanes 0..15 read word 0, lanes 16..31 read word 32 (also bank 0): 2 words in bank 0.
  std::vector<uint64_t> a(32, 0);
  for (unsigned l = 16; l < 32; ++l) a[l] = 128;
  EXPECT_EQ(cycles32(a, 4), 2u);
  // Bytes within one word are the same word: lane l reads byte l % 4 of word l / 4.
  EXPECT_EQ(cycles32(strided(0, 1), 1), 1u);
}

TEST(SharedBanks, WideAccessesTouchConsecutiveWords) {
  // 8 bytes, unit stride: lane l uses words 2l and 2l+1; 64 words over 32 banks = 2 each.
  EXPECT_EQ(cycles32(strided(0, 8), 8), 2u);
  // 16 bytes, unit stride: words 4l..4l+3; 128 words over 32 banks = 4 each.
  EXPECT_EQ(cycles32(strided(0, 16), 16), 4u);
  // 8 bytes, stride 16 bytes: words 4l, 4l+1 -> banks 4l%32 and 4l%32+1 (16 of them), each
  // hit by lanes l, l+8, l+16, l+24 -> 4 words per bank.
  EXPECT_EQ(cycles32(strided(0, 16), 8), 4u);
  // 8 bytes, all lanes the same address: broadcast of 2 words in 2 banks.
  EXPECT_EQ(cycles32(std::vector<uint64_t>(32, 8), 8), 1u);
}

TEST(SharedBanks, InactiveLanesAndBankCount) {
  // Stride 32 words, only lanes 0 and 5 active: 2 words in bank 0.
  EXPECT_EQ(cycles32(strided(0, 128), 4, 0x21), 2u);
  EXPECT_EQ(cycles32(strided(0, 128), 4, 0), 0u);
  // 16 banks, unit stride over 32 lanes: 32 words over 16 banks = 2 each.
  std::vector<uint64_t> a = strided(0, 4);
  EXPECT_EQ(shared_access_cycles(a.data(), full_mask(32), 32, 4, 16), 2u);
  // 64-lane warp, unit stride, 32 banks: 2 each.
  a = strided(0, 4, 64);
  EXPECT_EQ(shared_access_cycles(a.data(), full_mask(64), 64, 4, 32), 2u);
}

// More than 64 banks take the sorting path only; 64 or fewer check for a
// bank with two words first. Both must agree with the hand counts.
TEST(SharedBanks, ManyBanksCountLikeFew) {
  // 128 banks, stride 4 words: words 0, 4, ..., 124 are 32 different banks.
  std::vector<uint64_t> a = strided(0, 16);
  EXPECT_EQ(shared_access_cycles(a.data(), full_mask(32), 32, 4, 128), 1u);
  // Stride 8 words: words 0..248 map to banks 0, 8, ..., 120 twice each.
  a = strided(0, 32);
  EXPECT_EQ(shared_access_cycles(a.data(), full_mask(32), 32, 4, 128), 2u);
  // 64 banks, the same stride: 8 banks (0, 8, ..., 56), 4 words each.
  EXPECT_EQ(shared_access_cycles(a.data(), full_mask(32), 32, 4, 64), 4u);
  // A conflict found late (lane 31 shares lane 0's bank, another word): 2.
  a = strided(0, 4);
  a[31] = 32 * 4;  // word 32: bank 0 again
  EXPECT_EQ(shared_access_cycles(a.data(), full_mask(32), 32, 4, 32), 2u);
}

TEST(SharedBanks, RejectsBadParameters) {
  std::vector<uint64_t> a(32, 0);
  EXPECT_THROW(shared_access_cycles(a.data(), 1, 32, 3, 32), std::invalid_argument);   // size
  EXPECT_THROW(shared_access_cycles(a.data(), 1, 32, 32, 32), std::invalid_argument);  // size
  EXPECT_THROW(shared_access_cycles(a.data(), 1, 32, 4, 0), std::invalid_argument);    // banks
  EXPECT_THROW(shared_access_cycles(a.data(), 1, 65, 4, 32), std::invalid_argument);   // warp_size
}

}  // namespace
}  // namespace warptlm
