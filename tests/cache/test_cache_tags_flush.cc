// CacheTags' write-back helpers: is_dirty, and take_dirty (a flush) listing
// the dirty lines in way order and leaving them present and clean.
#include <gtest/gtest.h>

#include <vector>

#include "cache/cache_tags.h"

namespace warptlm {
namespace {

// 512 bytes, 2 ways, 64-byte lines: 4 sets; line n goes to set n % 4.
TEST(CacheTagsFlush, IsDirtyFollowsFillMarkAndInvalidate) {
  CacheTags t(512, 2, 64);
  t.fill(0x000, /*dirty=*/true);
  t.fill(0x040);
  EXPECT_TRUE(t.is_dirty(0x000));
  EXPECT_TRUE(t.is_dirty(0x03f));  // any byte of the line
  EXPECT_FALSE(t.is_dirty(0x040));
  EXPECT_FALSE(t.is_dirty(0x080));  // absent
  t.mark_dirty(0x040);
  EXPECT_TRUE(t.is_dirty(0x040));
  t.invalidate(0x000);
  EXPECT_FALSE(t.is_dirty(0x000));
  t.fill(0x000);  // back, clean: invalidate dropped the dirty data
  EXPECT_FALSE(t.is_dirty(0x000));
}

TEST(CacheTagsFlush, TakeDirtyListsInWayOrderAndCleans) {
  CacheTags t(512, 2, 64);
  // Set 1 way 0: line 1 (0x040, dirty); set 0 way 0: line 4 (0x100, clean),
  // set 0 way 1: line 0 (0x000, dirty); set 3 way 0: line 3 (0x0c0, dirty).
  t.fill(0x040, true);
  t.fill(0x100);
  t.fill(0x000, true);
  t.fill(0x0c0, true);
  std::vector<uint64_t> lines = {0xdead};  // appended to, not cleared
  t.take_dirty(lines);
  // Set-major, way by way: set 0 way 1 (0x000), set 1 way 0 (0x040), set 3 way 0 (0x0c0).
  EXPECT_EQ(lines, (std::vector<uint64_t>{0xdead, 0x000, 0x040, 0x0c0}));
  for (uint64_t a : {0x000, 0x040, 0x0c0, 0x100}) {
    EXPECT_TRUE(t.probe(a)) << a;  // still present
    EXPECT_FALSE(t.is_dirty(a)) << a;
  }
  lines.clear();
  t.take_dirty(lines);  // nothing left to write
  EXPECT_TRUE(lines.empty());
  // A clean line evicted after the flush reports no dirty data.
  t.fill(0x200);  // set 0: evicts the LRU of 0x100 and 0x000, i.e. 0x100
  const CacheTags::Victim v = t.fill(0x300);  // set 0 again: evicts 0x000, clean now
  EXPECT_EQ(v.line_addr, 0x000u);
  EXPECT_FALSE(v.dirty);
}

}  // namespace
}  // namespace warptlm
