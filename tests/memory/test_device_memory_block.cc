// DeviceMemory::block: the allocation holding a range, exactly the ranges
// read and write accept, and its bytes in place (what a write changes).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "memory/device_memory.h"

namespace warptlm {
namespace {

TEST(DeviceMemoryBlock, TheAllocationHoldingTheRange) {
  DeviceMemory m;
  const uint64_t a = m.allocate(100, "a");
  const uint64_t b = m.allocate(8, "b");
  const GlobalMemory::Block ba = m.block(a + 96, 4);
  ASSERT_NE(ba.data, nullptr);
  EXPECT_EQ(ba.base, a);
  EXPECT_EQ(ba.size, 100u);
  EXPECT_EQ(m.block(b, 8).base, b);
  const uint32_t v = 0x11223344;
  ASSERT_TRUE(m.write(a + 8, &v, 4));
  EXPECT_EQ(ba.data[8], 0x44);
  ba.data[12] = 0x7f;
  uint8_t r = 0;
  ASSERT_TRUE(m.read(a + 12, &r, 1));
  EXPECT_EQ(r, 0x7f);
  // Where read and write refuse, there is no block.
  uint32_t x = 0;
  for (uint64_t addr : {a + 97, a + 100, b - 4, uint64_t(0), b + 8}) {
    EXPECT_EQ(m.block(addr, 4).data, nullptr) << addr;
    EXPECT_FALSE(m.read(addr, &x, 4)) << addr;
  }
}

// find() remembers the allocation it found last: what it answers must not
// outlive that allocation or leak into a copy.
TEST(DeviceMemoryBlock, TheRememberedAllocationFollowsReleaseAndCopies) {
  DeviceMemory m;
  const uint64_t a = m.allocate(64, "a");
  const uint64_t b = m.allocate(64, "b");
  ASSERT_NE(m.find(a + 8, 4), nullptr);
  EXPECT_EQ(m.find(a + 8, 4)->name, "a");
  EXPECT_EQ(m.find(b, 4)->name, "b");     // another allocation than the last one
  EXPECT_EQ(m.find(a + 62, 4), nullptr);  // past the end of the last one found
  EXPECT_EQ(m.find(a + 60, 4)->name, "a");
  ASSERT_TRUE(m.release(a));
  EXPECT_EQ(m.find(a + 8, 4), nullptr);
  uint32_t x = 0;
  EXPECT_FALSE(m.read(a + 8, &x, 4));
  ASSERT_NE(m.find(b + 4, 4), nullptr);
  DeviceMemory copy = m;
  const DeviceMemory::Allocation* in_copy = copy.find(b + 4, 4);
  ASSERT_NE(in_copy, nullptr);
  EXPECT_NE(in_copy, m.find(b + 4, 4));  // the copy's own allocation
  const uint32_t v = 7;
  ASSERT_TRUE(copy.write(b + 4, &v, 4));
  ASSERT_TRUE(m.read(b + 4, &x, 4));
  EXPECT_EQ(x, 0u);
}

// A global memory that does not override block() has none.
TEST(DeviceMemoryBlock, OtherMemoriesHaveNoBlocksByDefault) {
  struct Plain : GlobalMemory {
    bool read(uint64_t, void*, uint64_t) const override { return true; }
    bool write(uint64_t, const void*, uint64_t) override { return true; }
    std::string describe(uint64_t) const override { return ""; }
  } p;
  EXPECT_EQ(p.block(0x1000, 4).data, nullptr);
}

}  // namespace
}  // namespace warptlm
