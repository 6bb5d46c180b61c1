// The L1 data path on its own: a test bench plays the SM (hands it a warp
// instruction's lane spans) and the memory system (answers what it sends),
// and checks hits, misses, MSHR merges, both write policies, atomics, the
// kernel-end flush and the lane an error answer is charged to.
#include <gtest/gtest.h>

#include <vector>

#include "sm/ldst/l1_data_path.h"

namespace warptlm {
namespace {

constexpr uint64_t kBypassBit = uint64_t(1) << 63;

L1Params params(bool write_back = false, uint64_t size = 1024, unsigned mshrs = 4) {
  L1Params p;
  p.size = size;  // 16 lines of 64 bytes, 2 ways
  p.assoc = 2;
  p.line = 64;
  p.mshrs = mshrs;
  p.latency = 10;
  p.write_back = write_back;
  p.warp_size = 32;
  return p;
}

// Lanes [0, lanes) access `size` bytes each at base + lane * stride.
AccessSpans strided(uint64_t base, unsigned stride, unsigned size = 4, unsigned lanes = 32) {
  AccessSpans s;
  for (unsigned l = 0; l < lanes; ++l) s.add(s.global, l, base + uint64_t(l) * stride, size);
  return s;
}

L1DataPath::Owner owner(unsigned slot, Pc pc = 0x40) {
  L1DataPath::Owner o;
  o.warp_slot = slot;
  o.global_warp = 100 + slot;
  o.pc = pc;
  o.lanes = ~LaneMask(0) >> 32;
  return o;
}

struct Bench {
  L1Stats stats;
  L1DataPath l1;
  std::vector<unsigned> completed;
  explicit Bench(const L1Params& p) : l1(p, stats) {}

  L1DataPath::Started load(const AccessSpans& s, uint64_t now, unsigned slot = 0) {
    return l1.start(s, L1DataPath::Access::Load, true, owner(slot), now, now);
  }
  L1DataPath::Started store(const AccessSpans& s, uint64_t now, unsigned slot = 0) {
    return l1.start(s, L1DataPath::Access::Store, false, owner(slot), now, now);
  }
  // Answers every request in the outbox at `now` (ok), in order; returns the
  // operations completed, in order.
  std::vector<unsigned> answer_all(uint64_t now) {
    std::vector<MemoryRequest> sent;
    sent.swap(l1.outbox());
    std::vector<unsigned> done;
    for (const MemoryRequest& r : sent) {
      unsigned failed = 0;
      const auto a = l1.response(r.tag, true, now, completed, failed);
      EXPECT_NE(a, L1DataPath::Answer::Failed);
      done.insert(done.end(), completed.begin(), completed.end());
    }
    return done;
  }
};

TEST(L1DataPath, LoadMissesThenHitsAfterTheFill) {
  Bench b(params());
  const auto first = b.load(strided(0x1000, 4), 5);  // 128 bytes: two lines
  ASSERT_NE(first.op, L1DataPath::kNoOp);
  EXPECT_EQ(first.lines, 2u);
  ASSERT_EQ(b.l1.outbox().size(), 2u);
  EXPECT_EQ(b.l1.outbox()[0].address, 0x1000u);
  EXPECT_EQ(b.l1.outbox()[0].tag, 0x1000u);  // an MSHR fill is tagged with its line
  EXPECT_EQ(b.l1.outbox()[0].kind, AccessKind::Load);
  EXPECT_EQ(b.l1.outbox()[0].warp, 100u);
  EXPECT_EQ(b.l1.op(first.op).pending, 2u);
  EXPECT_EQ(b.answer_all(50), std::vector<unsigned>{first.op});
  EXPECT_EQ(b.l1.completion_ready(first.op, 50), 60u);  // the answer plus the hit latency
  const L1DataPath::MemoryOp op = b.l1.op(first.op);
  EXPECT_TRUE(op.writes_registers);
  EXPECT_EQ(op.warp, 0u);
  b.l1.release(first.op);

  const auto again = b.load(strided(0x1000, 4), 70);
  EXPECT_EQ(again.op, L1DataPath::kNoOp);
  EXPECT_EQ(again.ready, 80u);
  EXPECT_TRUE(b.l1.outbox().empty());
  EXPECT_EQ(b.stats.misses, 2u);
  EXPECT_EQ(b.stats.hits, 2u);
  EXPECT_EQ(b.stats.memory_instructions, 2u);
  EXPECT_EQ(b.stats.memory_transactions, 4u);
}

TEST(L1DataPath, MissesToALineInFlightMergeIntoItsMshr) {
  Bench b(params());
  const auto a = b.load(strided(0x2000, 0, 4, 1), 0, 0);
  const auto c = b.load(strided(0x2010, 0, 4, 1), 1, 1);
  EXPECT_EQ(b.l1.outbox().size(), 1u);  // one fill for both
  EXPECT_EQ(b.stats.mshr_merges, 1u);
  // The fill completes both, in the order they waited.
  EXPECT_EQ(b.answer_all(30), (std::vector<unsigned>{a.op, c.op}));
}

TEST(L1DataPath, WithEveryMshrBusyAMissBypassesThem) {
  Bench b(params(false, 1024, 1));
  b.load(strided(0x3000, 0, 4, 1), 0);
  EXPECT_TRUE(b.l1.mshrs_full());
  const auto second = b.load(strided(0x4000, 0, 4, 1), 1);
  ASSERT_EQ(b.l1.outbox().size(), 2u);
  EXPECT_EQ(b.l1.outbox()[1].tag, kBypassBit | second.op);
  const auto done = b.answer_all(20);
  EXPECT_EQ(done.size(), 2u);
  EXPECT_FALSE(b.l1.mshrs_full());
}

TEST(L1DataPath, WriteThroughStoresDoNotAllocate) {
  Bench b(params());
  const auto st = b.store(strided(0x5000, 4, 4, 16), 0);  // one full line
  ASSERT_NE(st.op, L1DataPath::kNoOp);
  ASSERT_EQ(b.l1.outbox().size(), 1u);
  EXPECT_TRUE(b.l1.outbox()[0].write);
  EXPECT_EQ(b.l1.outbox()[0].kind, AccessKind::Store);
  EXPECT_FALSE(b.l1.op(st.op).writes_registers);
  b.answer_all(10);
  EXPECT_FALSE(b.l1.tags()->probe(0x5000));
  EXPECT_NE(b.load(strided(0x5000, 4, 4, 16), 20).op, L1DataPath::kNoOp);  // still a miss
}

TEST(L1DataPath, WriteBackFullLineStoreAllocatesDirtyAndTheFlushWritesIt) {
  Bench b(params(true));
  const auto st = b.store(strided(0x6000, 4, 4, 16), 0);  // every byte of the line
  EXPECT_EQ(st.op, L1DataPath::kNoOp);                    // nothing leaves the SM
  EXPECT_EQ(st.ready, 10u);
  EXPECT_TRUE(b.l1.outbox().empty());
  EXPECT_TRUE(b.l1.tags()->is_dirty(0x6000));
  EXPECT_FALSE(b.l1.start_flush(100));
  EXPECT_TRUE(b.l1.flushing());
  ASSERT_EQ(b.l1.outbox().size(), 1u);
  EXPECT_EQ(b.l1.outbox()[0].kind, AccessKind::Writeback);
  unsigned failed = 0;
  std::vector<unsigned> done;
  EXPECT_EQ(b.l1.response(b.l1.outbox()[0].tag, true, 130, done, failed),
            L1DataPath::Answer::WriteBack);
  EXPECT_FALSE(b.l1.flushing());
  EXPECT_EQ(b.stats.flush_writebacks, 1u);
  EXPECT_EQ(b.stats.writebacks, 1u);
  EXPECT_EQ(b.stats.flush_cycles, 30u);
  EXPECT_TRUE(b.l1.tags()->probe(0x6000));  // still present, now clean
  EXPECT_FALSE(b.l1.tags()->is_dirty(0x6000));
  EXPECT_TRUE(b.l1.start_flush(200));  // nothing dirty: complete at once
}

TEST(L1DataPath, WriteBackPartialStoreFetchesTheLineAndFillsItDirty) {
  Bench b(params(true));
  const auto st = b.store(strided(0x7000, 4, 4, 4), 0);  // 16 of 64 bytes
  ASSERT_NE(st.op, L1DataPath::kNoOp);
  ASSERT_EQ(b.l1.outbox().size(), 1u);
  EXPECT_EQ(b.l1.outbox()[0].kind, AccessKind::Load);  // fetch-on-write
  EXPECT_EQ(b.answer_all(40), std::vector<unsigned>{st.op});
  EXPECT_TRUE(b.l1.tags()->is_dirty(0x7000));
}

TEST(L1DataPath, DirtyVictimsAreWrittenBack) {
  Bench b(params(true, 128));  // one set of two ways
  b.store(strided(0x0, 4, 4, 16), 0);
  b.store(strided(0x40, 4, 4, 16), 1);
  EXPECT_TRUE(b.l1.outbox().empty());
  b.store(strided(0x80, 4, 4, 16), 2);  // evicts the least recently used line, 0x0
  ASSERT_EQ(b.l1.outbox().size(), 1u);
  EXPECT_EQ(b.l1.outbox()[0].address, 0x0u);
  EXPECT_EQ(b.l1.outbox()[0].kind, AccessKind::Writeback);
  EXPECT_EQ(b.l1.outbox()[0].warp, 100u);  // the evicting access's warp
  EXPECT_EQ(b.l1.write_backs_in_flight(), 1u);
}

TEST(L1DataPath, AtomicsGoToTheL2AfterWritingBackADirtyCopy) {
  Bench b(params(true));
  b.store(strided(0x8000, 4, 4, 16), 0);
  const auto at =
      b.l1.start(strided(0x8000, 0, 4, 1), L1DataPath::Access::Atomic, true, owner(3), 1, 1);
  ASSERT_EQ(b.l1.outbox().size(), 2u);
  EXPECT_EQ(b.l1.outbox()[0].kind, AccessKind::Writeback);
  EXPECT_EQ(b.l1.outbox()[1].kind, AccessKind::Atomic);
  EXPECT_EQ(b.l1.outbox()[1].tag, kBypassBit | at.op);
  EXPECT_FALSE(b.l1.tags()->probe(0x8000));  // invalidated
}

TEST(L1DataPath, UncachedGlobalLoadsNeverHit) {
  L1Params p = params();
  p.cache_global = false;
  Bench b(p);
  b.load(strided(0x9000, 4, 4, 1), 0);
  b.answer_all(10);
  EXPECT_NE(b.load(strided(0x9000, 4, 4, 1), 20).op, L1DataPath::kNoOp);
  EXPECT_EQ(b.stats.hits, 0u);
}

TEST(L1DataPath, WithoutAnL1EveryLoadGoesOut) {
  Bench b(params(false, 0));
  EXPECT_EQ(b.l1.tags(), nullptr);
  b.load(strided(0xa000, 4, 4, 1), 0);
  b.answer_all(10);
  EXPECT_NE(b.load(strided(0xa000, 4, 4, 1), 20).op, L1DataPath::kNoOp);
}

TEST(L1DataPath, AnErrorAnswerNamesTheLowestLaneTouchingTheLine) {
  Bench b(params());
  // Lanes 0-15 read line 0xb000, lanes 16-31 line 0xb040.
  const auto ld = b.load(strided(0xb000, 4), 0);
  const MemoryRequest second = b.l1.outbox()[1];
  unsigned failed = ~0u;
  std::vector<unsigned> done;
  EXPECT_EQ(b.l1.response(second.tag, false, 20, done, failed), L1DataPath::Answer::Failed);
  EXPECT_EQ(failed, ld.op);
  const L1DataPath::FaultSite site = b.l1.fault_site(failed, second.address, AccessKind::Load);
  EXPECT_EQ(site.lane, 16u);
  EXPECT_EQ(site.address, 0xb040u);
  EXPECT_EQ(site.size, 4u);
  EXPECT_EQ(site.thread, -1);
  EXPECT_EQ(site.why,
            "the memory system answered an error for the load of the line at 0xb040 (lane 16's "
            "address 0xb040)");
}

TEST(L1DataPath, AFormedWarpsFaultNamesTheThreadAndItsPiecesAreKept) {
  Bench b(params());
  std::vector<WarpPiece> pieces = {{4, 0x0f}, {6, 0xf0}};
  std::vector<int32_t> threads(32, -1);
  for (int l = 0; l < 8; ++l) threads[static_cast<size_t>(l)] = l < 4 ? 128 + l : 192 + l;
  L1DataPath::Owner o = owner(2);
  o.pieces = &pieces;
  o.lane_thread = &threads;
  const auto ld = b.l1.start(strided(0xc000, 4, 4, 8), L1DataPath::Access::Load, true, o, 0, 0);
  ASSERT_NE(ld.op, L1DataPath::kNoOp);
  EXPECT_EQ(b.l1.op(ld.op).pieces, 2u);
  EXPECT_EQ(b.l1.pieces(ld.op)[1].warp, 6u);
  EXPECT_EQ(b.l1.pieces(ld.op)[1].lanes, 0xf0u);
  const L1DataPath::FaultSite site = b.l1.fault_site(ld.op, 0xc000, AccessKind::Load);
  EXPECT_EQ(site.lane, 0u);
  EXPECT_EQ(site.thread, 128);
}

TEST(L1DataPath, AFailedWriteBackIsReportedAsSuch) {
  Bench b(params(true));
  b.store(strided(0xd000, 4, 4, 16), 0);
  b.l1.start_flush(10);
  unsigned failed = 0;
  std::vector<unsigned> done;
  EXPECT_EQ(b.l1.response(b.l1.outbox()[0].tag, false, 20, done, failed),
            L1DataPath::Answer::WriteBackFailed);
}

}  // namespace
}  // namespace warptlm
