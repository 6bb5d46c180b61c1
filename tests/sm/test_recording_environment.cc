// RecordingEnvironment: a warp access (load_lanes/store_lanes) leaves the
// same records for the LD/ST unit as lane-by-lane loads and stores, in lane
// order, and on a fault those of the lanes below the faulting one; special
// registers for a whole warp are what each lane reads, the timing clocks
// included.
#include <gtest/gtest.h>

#include <vector>

#include "common/special_lanes.h"
#include "memory/address_map.h"
#include "memory/device_memory.h"
#include "sm/recording_environment.h"

namespace warptlm {
namespace {

constexpr unsigned kLanes = 8;

struct World {
  World() {
    buf = dev.allocate(256, "buf");
    memory.global = &dev;
    cta.shared.assign(128, 0);
    warp.size = kLanes;
    warp.local.assign(kLanes, std::vector<uint8_t>(32, 0));
    warp.frames.emplace_back();
    env.bind(&warp);
  }
  Module module;
  DeviceMemory dev;
  KernelMemory memory;
  CtaContext cta;
  Warp warp;
  RecordingEnvironment env{module, memory, cta};
  uint64_t buf = 0;
};

bool same(const MemoryAccess& x, const MemoryAccess& y) {
  return x.space == y.space && x.lane == y.lane && x.address == y.address && x.size == y.size &&
         x.write == y.write;
}

void expect_same_records(const std::vector<MemoryAccess>& got,
                         const std::vector<MemoryAccess>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_TRUE(same(got[i], want[i])) << "record " << i;
}

TEST(RecordingEnvironment, SpecialRegistersForAWarpAreWhatEachLaneReads) {
  World w;
  w.warp.tid.resize(kLanes);
  for (unsigned l = 0; l < kLanes; ++l) w.warp.tid[l] = {l, 3, 1};
  w.cta.ctaid = {5, 6, 7};
  w.env.cycle = 123456789;  // the clocks and timers read the SM's cycle
  w.env.ns_per_cycle = 0.7;
  w.env.sm = 3;
  w.env.num_sms = 15;
  testing::expect_special_lanes_match(w.env, kLanes);
  uint64_t v[kMaxWarpSize] = {};
  w.env.special_lanes(SpecialReg::Clock64, 0, 0b110, v);
  EXPECT_EQ(v[1], 123456789u);
  EXPECT_EQ(v[2], 123456789u);
}

TEST(RecordingEnvironment, WarpAccessRecordsEachLaneInOrder) {
  World batch, lanes;
  // Global, and generic addresses in the shared and local windows.
  uint64_t addrs[kLanes];
  for (unsigned l = 0; l < kLanes; ++l) addrs[l] = batch.buf + 8 * (kLanes - l);
  addrs[2] = address_map::kSharedBase + 16;
  addrs[5] = address_map::kLocalBase + 8;
  const LaneMask mask = 0b10110110;
  uint8_t data[kLanes * 8] = {};
  batch.env.store_lanes(Space::Generic, mask, addrs, data, 8);
  batch.env.load_lanes(Space::Generic, mask, addrs, data, 8);
  for (unsigned l = 0; l < kLanes; ++l)
    if ((mask >> l) & 1) lanes.env.store(Space::Generic, l, addrs[l], data + 8 * l, 8);
  for (unsigned l = 0; l < kLanes; ++l)
    if ((mask >> l) & 1) lanes.env.load(Space::Generic, l, addrs[l], data + 8 * l, 8);
  expect_same_records(batch.env.accesses, lanes.env.accesses);
  ASSERT_EQ(batch.env.accesses.size(), 10u);
  EXPECT_EQ(batch.env.accesses[0].lane, 1u);
  EXPECT_EQ(batch.env.accesses[1].space, Space::Shared);  // resolved, within its space
  EXPECT_EQ(batch.env.accesses[1].address, 16u);
  EXPECT_TRUE(batch.env.accesses[4].write);
  EXPECT_FALSE(batch.env.accesses[5].write);
}

TEST(RecordingEnvironment, FaultingWarpAccessRecordsTheLanesBelowIt) {
  World batch, lanes;
  uint64_t addrs[kLanes];
  for (unsigned l = 0; l < kLanes; ++l) addrs[l] = batch.buf + 4 * l;
  addrs[4] = batch.buf + 256;  // past the end
  addrs[6] = 0;                // null, after the first fault
  uint8_t data[kLanes * 4] = {};
  EXPECT_THROW(batch.env.load_lanes(Space::Global, 0b11111110, addrs, data, 4), MemoryFault);
  for (unsigned l = 1; l < 4; ++l) lanes.env.load(Space::Global, l, addrs[l], data + 4 * l, 4);
  EXPECT_THROW(lanes.env.load(Space::Global, 4, addrs[4], data + 16, 4), MemoryFault);
  expect_same_records(batch.env.accesses, lanes.env.accesses);
  EXPECT_EQ(batch.env.accesses.size(), 3u);
  batch.env.accesses.clear();
  EXPECT_THROW(batch.env.store_lanes(Space::Global, 0b11110000, addrs, data, 4), MemoryFault);
  EXPECT_TRUE(batch.env.accesses.empty());  // lane 4 is the first
}

}  // namespace
}  // namespace warptlm
