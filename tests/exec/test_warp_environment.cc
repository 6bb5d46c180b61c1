// FunctionalWarpEnvironment's warp accesses (load_lanes/store_lanes, and the
// atomics' update_lanes): the same bytes and the same faults as its per-lane
// load/store in lane order,
// across allocations, state spaces and generic windows, and with a global
// memory that offers no blocks; its special registers for a whole warp
// (special_lanes) as lane by lane.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "common/special_lanes.h"
#include "exec/cta_memory.h"
#include "exec/warp_environment.h"
#include "memory/address_map.h"
#include "memory/device_memory.h"

namespace warptlm {
namespace {

constexpr unsigned kLanes = 4;

// A global memory reached only through read and write (as the GPU's memory
// socket bound to a platform memory): no blocks.
class ReadWriteOnly : public GlobalMemory {
 public:
  explicit ReadWriteOnly(DeviceMemory& m) : m_(m) {}
  bool read(uint64_t addr, void* dst, uint64_t size) const override {
    return m_.read(addr, dst, size);
  }
  bool write(uint64_t addr, const void* src, uint64_t size) override {
    return m_.write(addr, src, size);
  }
  std::string describe(uint64_t addr) const override { return m_.describe(addr); }

 private:
  DeviceMemory& m_;
};

// One 4-lane warp of one CTA: two global buffers, 64 bytes of shared, local
// and constant memory each.
// (Or `lanes` lanes and `bytes` bytes of each.)
struct World {
  explicit World(bool blocks = true, unsigned lanes = kLanes, unsigned bytes = 64) : plain(dev) {
    a = dev.allocate(bytes, "a");
    b = dev.allocate(bytes, "b");
    memory.global = blocks ? static_cast<GlobalMemory*>(&dev) : &plain;
    memory.constants.assign(bytes, 0);
    cta.shared.assign(bytes, 0);
    warp.size = lanes;
    warp.local.assign(lanes, std::vector<uint8_t>(bytes, 0));
    warp.frames.emplace_back();
    for (unsigned i = 0; i < bytes; ++i) {
      const uint8_t v = static_cast<uint8_t>(i);
      dev.write(a + i, &v, 1);
      const uint8_t w = static_cast<uint8_t>(0x80 + i);
      dev.write(b + i, &w, 1);
      cta.shared[i] = static_cast<uint8_t>(0x40 + i);
      memory.constants[i] = static_cast<uint8_t>(0xc0 + i);
      for (unsigned l = 0; l < lanes; ++l) warp.local[l][i] = static_cast<uint8_t>(16 * l + i);
    }
    env.bind(&warp);
  }
  uint32_t global_u32(uint64_t addr) {
    uint32_t v = 0;
    dev.read(addr, &v, 4);
    return v;
  }

  Module module;
  DeviceMemory dev;
  ReadWriteOnly plain;
  KernelMemory memory;
  CtaContext cta;
  Warp warp;
  FunctionalWarpEnvironment env{module, memory, cta};
  uint64_t a = 0, b = 0;
};

// The fault `f` throws (the test fails when it throws none).
MemoryFault fault_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const MemoryFault& m) {
    return m;
  }
  ADD_FAILURE() << "expected a MemoryFault";
  return MemoryFault(MemoryFault::Reason::OutOfBounds, Space::Generic, 0, 0, 99, "none");
}

void expect_same(const MemoryFault& got, const MemoryFault& want) {
  EXPECT_STREQ(got.what(), want.what());
  EXPECT_EQ(got.reason, want.reason);
  EXPECT_EQ(got.space, want.space);
  EXPECT_EQ(got.address, want.address);
  EXPECT_EQ(got.size, want.size);
  EXPECT_EQ(got.lane, want.lane);
}

// Every lane's bytes as load() reads them, lane by lane.
std::vector<uint8_t> per_lane_loads(World& w, Space space, LaneMask lanes, const uint64_t* addrs,
                                    unsigned size) {
  std::vector<uint8_t> out(kLanes * size, 0xee);
  for (unsigned l = 0; l < kLanes; ++l)
    if ((lanes >> l) & 1) w.env.load(space, l, addrs[l], out.data() + l * size, size);
  return out;
}

std::vector<uint8_t> batch_load(World& w, Space space, LaneMask lanes, const uint64_t* addrs,
                                unsigned size) {
  std::vector<uint8_t> out(kLanes * size, 0xee);
  w.env.load_lanes(space, lanes, addrs, out.data(), size);
  return out;
}

TEST(WarpEnvironment, BatchReadsWhatLaneByLaneReads) {
  for (bool blocks : {true, false}) {
    World w(blocks);
    // Lanes in two allocations, back and forth (the block found is replaced).
    const uint64_t g[kLanes] = {w.a + 4, w.b + 8, w.a + 60, w.b + 60};
    EXPECT_EQ(batch_load(w, Space::Global, 0b1111, g, 4),
              per_lane_loads(w, Space::Global, 0b1111, g, 4));
    EXPECT_EQ(w.global_u32(w.b + 8), 0x8b8a8988u);
    // Lanes outside the mask are left alone.
    std::vector<uint8_t> partial = batch_load(w, Space::Global, 0b0101, g, 4);
    EXPECT_EQ(partial[4], 0xee);
    EXPECT_EQ(partial[8], 60);
    // Generic addresses of several windows in one access.
    const uint64_t gen[kLanes] = {address_map::kSharedBase + 8, w.b + 16,
                                  address_map::kLocalBase + 24, address_map::kConstBase + 32};
    EXPECT_EQ(batch_load(w, Space::Generic, 0b1111, gen, 8),
              per_lane_loads(w, Space::Generic, 0b1111, gen, 8));
    // Local memory is the lane's own.
    const uint64_t loc[kLanes] = {0, 0, 0, 0};
    std::vector<uint8_t> local = batch_load(w, Space::Local, 0b1111, loc, 2);
    EXPECT_EQ(local[2 * 3], 48);
    EXPECT_EQ(local, per_lane_loads(w, Space::Local, 0b1111, loc, 2));
    const uint64_t sh[kLanes] = {0, 16, 32, 56};
    EXPECT_EQ(batch_load(w, Space::Shared, 0b1111, sh, 8),
              per_lane_loads(w, Space::Shared, 0b1111, sh, 8));
    // Kernel parameters: every lane at one address, or each at its own.
    w.memory.params.resize(32);
    for (unsigned i = 0; i < 32; ++i) w.memory.params[i] = static_cast<uint8_t>(0x20 + i);
    const uint64_t same[kLanes] = {8, 8, 8, 8}, own[kLanes] = {0, 4, 24, 28};
    EXPECT_EQ(batch_load(w, Space::Param, 0b1111, same, 8),
              per_lane_loads(w, Space::Param, 0b1111, same, 8));
    EXPECT_EQ(batch_load(w, Space::Param, 0b1011, own, 4),
              per_lane_loads(w, Space::Param, 0b1011, own, 4));
    EXPECT_EQ(batch_load(w, Space::Param, 0b1111, own, 4)[3 * 4], 0x20 + 28);
  }
}

TEST(WarpEnvironment, BatchWritesWhatLaneByLaneWrites) {
  for (bool blocks : {true, false}) {
    World w(blocks), ref(blocks);
    const uint64_t g[kLanes] = {w.a, w.b + 4, address_map::kSharedBase + 12, w.a + 32};
    uint8_t data[kLanes * 4];
    for (unsigned i = 0; i < sizeof data; ++i) data[i] = static_cast<uint8_t>(0xa0 + i);
    w.env.store_lanes(Space::Generic, 0b1011, g, data, 4);
    for (unsigned l : {0u, 1u, 3u}) ref.env.store(Space::Generic, l, g[l], data + 4 * l, 4);
    for (uint64_t off = 0; off < 64; off += 4) {
      EXPECT_EQ(w.global_u32(w.a + off), ref.global_u32(ref.a + off)) << off;
      EXPECT_EQ(w.global_u32(w.b + off), ref.global_u32(ref.b + off)) << off;
    }
    EXPECT_EQ(w.cta.shared, ref.cta.shared);  // lane 2 is not in the mask
    EXPECT_EQ(w.global_u32(w.b + 4), 0xa7a6a5a4u);
    // Global lanes in two allocations, three of them at one address: the
    // lanes before the one in the other allocation are written through the
    // first lane's block, then every lane in order; the last lane's bytes win.
    const uint64_t same[kLanes] = {w.a + 8, w.a + 8, w.b + 12, w.a + 8};
    w.env.store_lanes(Space::Global, 0b1111, same, data, 4);
    for (unsigned l = 0; l < kLanes; ++l)
      ref.env.store(Space::Global, l, same[l] - w.a + ref.a, data + 4 * l, 4);
    EXPECT_EQ(w.global_u32(w.a + 8), 0xafaeadacu);
    EXPECT_EQ(w.global_u32(w.b + 12), 0xabaaa9a8u);
    for (uint64_t off = 0; off < 64; off += 4) {
      EXPECT_EQ(w.global_u32(w.a + off), ref.global_u32(ref.a + off)) << off;
      EXPECT_EQ(w.global_u32(w.b + off), ref.global_u32(ref.b + off)) << off;
    }
  }
}

// A whole 32-lane warp takes shortcuts: lanes at consecutive addresses are
// one copy, a load of one address for every lane reads it once. Each against
// lane by lane, in bounds and running past the end of a buffer (which faults
// at the first lane outside it, the lanes below it done).
TEST(WarpEnvironment, WholeWarpsReadAndWriteWhatLaneByLaneDoes) {
  constexpr unsigned kWarp = 32, kBytes = 512;
  const LaneMask all = full_mask(kWarp);
  for (bool blocks : {true, false}) {
    for (unsigned size : {4u, 8u}) {
      SCOPED_TRACE(std::string(blocks ? "blocks" : "no blocks") + ", size " + std::to_string(size));
      World w(blocks, kWarp, kBytes), ref(blocks, kWarp, kBytes);
      ref.memory.params = w.memory.params = std::vector<uint8_t>(64, 0x33);
      // Loads: consecutive from the start, the middle and running past a's
      // end; one address; one address past the end; consecutive but for one lane.
      struct Case {
        Space space;
        uint64_t first;
        uint64_t step;
      };
      const uint64_t past = kBytes - 8 * size;  // lanes 8.. are past a's end
      for (const Case& c : {Case{Space::Global, w.a, size}, Case{Space::Global, w.a + 64, size},
                            Case{Space::Global, w.a + past, size}, Case{Space::Shared, 0, size},
                            Case{Space::Shared, past, size}, Case{Space::Global, w.a + 16, 0},
                            Case{Space::Global, w.a + kBytes, 0}, Case{Space::Param, 8, 0},
                            Case{Space::Param, 64, 0}, Case{Space::Shared, 24, 0}}) {
        SCOPED_TRACE(std::string(space_name(c.space)) + " at " + std::to_string(c.first - w.a) +
                     " step " + std::to_string(c.step));
        for (bool odd_lane : {false, true}) {
          uint64_t addrs[kWarp];
          for (unsigned l = 0; l < kWarp; ++l) addrs[l] = c.first + l * c.step;
          if (odd_lane) addrs[17] += size;  // not consecutive, not one address
          std::vector<uint8_t> got(kWarp * size, 0xee), want(kWarp * size, 0xee);
          MemoryFault none(MemoryFault::Reason::OutOfBounds, Space::Generic, 0, 0, 99, "none");
          MemoryFault gf = none, wf = none;
          try {
            w.env.load_lanes(c.space, all, addrs, got.data(), size);
          } catch (const MemoryFault& f) {
            gf = f;
          }
          try {
            for (unsigned l = 0; l < kWarp; ++l)
              w.env.load(c.space, l, addrs[l], want.data() + l * size, size);
          } catch (const MemoryFault& f) {
            wf = f;
          }
          expect_same(gf, wf);
          EXPECT_EQ(got, want);
        }
      }
      // Stores: consecutive in bounds, then running past b's end.
      std::vector<uint8_t> data(kWarp * size);
      for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(0x11 * i + 3);
      for (const Case& c : {Case{Space::Global, 0, size}, Case{Space::Global, past, size},
                            Case{Space::Shared, 64, size}, Case{Space::Shared, past, size}}) {
        ASSERT_EQ(w.b, ref.b);
        uint64_t addrs[kWarp];
        for (unsigned l = 0; l < kWarp; ++l)
          addrs[l] = (c.space == Space::Global ? w.b : 0) + c.first + l * size;
        MemoryFault none(MemoryFault::Reason::OutOfBounds, Space::Generic, 0, 0, 99, "none");
        MemoryFault gf = none, wf = none;
        try {
          w.env.store_lanes(c.space, all, addrs, data.data(), size);
        } catch (const MemoryFault& f) {
          gf = f;
        }
        try {
          for (unsigned l = 0; l < kWarp; ++l)
            ref.env.store(c.space, l, addrs[l], data.data() + l * size, size);
        } catch (const MemoryFault& f) {
          wf = f;
        }
        expect_same(gf, wf);  // the two worlds' buffers are at the same addresses
        for (uint64_t off = 0; off < kBytes; off += 4)
          ASSERT_EQ(w.global_u32(w.b + off), ref.global_u32(ref.b + off)) << off;
        EXPECT_EQ(w.cta.shared, ref.cta.shared);
      }
    }
  }
}

// The first faulting lane is reported with load/store's message; the lanes
// below it have completed, those above it have not.
TEST(WarpEnvironment, SpecialRegistersForAWarpAreWhatEachLaneReads) {
  World w;
  w.warp.tid = {{0, 1, 0}, {1, 1, 0}, {2, 1, 0}, {3, 1, 0}};
  w.warp.index = 2;
  w.warp.issued = 0x1234567890ull;
  w.cta.ntid = {4, 2, 1};
  w.cta.ctaid = {5, 6, 7};
  w.cta.nctaid = {8, 9, 10};
  w.cta.warps = 2;
  w.cta.grid_workspace = 0xabcdef0123ull;
  testing::expect_special_lanes_match(w.env, kLanes);
}

TEST(WarpEnvironment, BatchFaultsAtTheLowestFaultingLane) {
  for (bool blocks : {true, false}) {
    World w(blocks);
    // Lane 1 runs 4 bytes past a's end (into the gap), lane 3 before b.
    const uint64_t g[kLanes] = {w.a, w.a + 64, w.b, w.b - 8};
    uint8_t out[kLanes * 8];
    std::memset(out, 0xee, sizeof out);
    const MemoryFault lf = fault_of([&] { w.env.load_lanes(Space::Global, 0b1111, g, out, 8); });
    uint8_t one[8];
    expect_same(lf, fault_of([&] { w.env.load(Space::Global, 1, g[1], one, 8); }));
    EXPECT_EQ(lf.lane, 1u);
    EXPECT_EQ(out[0], 0);      // lane 0 read a[0..8)
    EXPECT_EQ(out[16], 0xee);  // lane 2 not read
    uint8_t data[kLanes * 8];
    std::memset(data, 0x5a, sizeof data);
    const MemoryFault sf = fault_of([&] { w.env.store_lanes(Space::Global, 0b1101, g, data, 8); });
    expect_same(sf, fault_of([&] { w.env.store(Space::Global, 3, g[3], data, 8); }));
    EXPECT_EQ(w.global_u32(w.a), 0x5a5a5a5au);  // lanes 0 and 2 stored
    EXPECT_EQ(w.global_u32(w.b), 0x5a5a5a5au);
    // Lane 2 stops a store before lane 3 writes.
    const uint64_t g2[kLanes] = {w.a + 8, w.b + 8, w.b + 64, w.a + 16};
    expect_same(fault_of([&] { w.env.store_lanes(Space::Global, 0b1100, g2, data, 8); }),
                fault_of([&] { w.env.store(Space::Global, 2, g2[2], data, 8); }));
    EXPECT_EQ(w.global_u32(w.a + 16), 0x13121110u);

    // Other spaces: shared out of range, read-only constants, generic gaps.
    const uint64_t sh[kLanes] = {0, 8, 64, 72};
    expect_same(fault_of([&] { w.env.load_lanes(Space::Shared, 0b1111, sh, out, 4); }),
                fault_of([&] { w.env.load(Space::Shared, 2, sh[2], one, 4); }));
    const uint64_t c[kLanes] = {0, 4, 8, 12};
    expect_same(fault_of([&] { w.env.store_lanes(Space::Const, 0b1110, c, data, 4); }),
                fault_of([&] { w.env.store(Space::Const, 1, c[1], data, 4); }));
    const uint64_t gen[kLanes] = {address_map::kLocalBase, address_map::kLocalBase + 64, 0, 0};
    const MemoryFault gf = fault_of([&] { w.env.load_lanes(Space::Generic, 0b1111, gen, out, 4); });
    expect_same(gf, fault_of([&] { w.env.load(Space::Generic, 1, gen[1], one, 4); }));
    EXPECT_EQ(gf.space, Space::Local);
    // Parameters: past the kernel's buffer, and a call frame's (none here).
    w.memory.params.assign(16, 0);
    const uint64_t p[kLanes] = {0, 8, 16, kFrameParamTag};
    expect_same(fault_of([&] { w.env.load_lanes(Space::Param, 0b1111, p, out, 4); }),
                fault_of([&] { w.env.load(Space::Param, 2, p[2], one, 4); }));
    expect_same(fault_of([&] { w.env.load_lanes(Space::Param, 0b1011, p, out, 8); }),
                fault_of([&] { w.env.load(Space::Param, 3, p[3], one, 8); }));
  }
}

// An atomic's callback: adds lane + 1 to a u32 and keeps the old value.
struct AddLane {
  uint32_t old[kLanes] = {};
  static void update(void* ctx, unsigned lane, uint8_t* bytes) {
    uint32_t v = 0;
    std::memcpy(&v, bytes, 4);
    static_cast<AddLane*>(ctx)->old[lane] = v;
    v += lane + 1;
    std::memcpy(bytes, &v, 4);
  }
};

TEST(WarpEnvironment, UpdatesAreLaneByLaneReadModifyWrites) {
  for (bool blocks : {true, false}) {
    World w(blocks), ref(blocks);
    // Three lanes at one address, updated in lane order; lane 1 in the other
    // allocation sends lanes 1 to 3 the lane-by-lane way.
    for (const std::vector<uint64_t>& offsets :
         {std::vector<uint64_t>{8, 8, 12, 8}, std::vector<uint64_t>{8, 64 + 4, 8, 8}}) {
      uint64_t g[kLanes], r[kLanes];
      for (unsigned l = 0; l < kLanes; ++l) {
        g[l] = offsets[l] < 64 ? w.a + offsets[l] : w.b + offsets[l] - 64;
        r[l] = offsets[l] < 64 ? ref.a + offsets[l] : ref.b + offsets[l] - 64;
      }
      AddLane got, want;
      w.env.update_lanes(Space::Global, 0b1111, g, 4, &AddLane::update, &got);
      ref.env.WarpEnvironment::update_lanes(Space::Global, 0b1111, r, 4, &AddLane::update, &want);
      for (unsigned l = 0; l < kLanes; ++l) EXPECT_EQ(got.old[l], want.old[l]) << l;
      for (uint64_t off = 0; off < 64; off += 4) {
        EXPECT_EQ(w.global_u32(w.a + off), ref.global_u32(ref.a + off)) << off;
        EXPECT_EQ(w.global_u32(w.b + off), ref.global_u32(ref.b + off)) << off;
      }
    }
    EXPECT_EQ(w.global_u32(w.a + 8), 0x0b0a0908u + 1 + 2 + 4 + 1 + 3 + 4);
    // Shared memory, and a lane past its end: lanes 0 and 1 done, 3 not.
    const uint64_t sh[kLanes] = {4, 4, 64, 0};
    AddLane got, want;
    const MemoryFault f =
        fault_of([&] { w.env.update_lanes(Space::Shared, 0b1111, sh, 4, &AddLane::update, &got); });
    expect_same(f, fault_of([&] {
                  ref.env.WarpEnvironment::update_lanes(Space::Shared, 0b1111, sh, 4,
                                                        &AddLane::update, &want);
                }));
    EXPECT_EQ(f.lane, 2u);
    EXPECT_EQ(w.cta.shared, ref.cta.shared);
    EXPECT_EQ(w.cta.shared[4], 0x44 + 3);
    EXPECT_EQ(w.cta.shared[0], 0x40);  // lane 3 not updated
    EXPECT_EQ(got.old[1], want.old[1]);
  }
}

}  // namespace
}  // namespace warptlm
