// PayloadPool: payloads come out ready to fill, are recycled (not re-made) after release(), and the
// pool accounts for every one it hands out.
#include <gtest/gtest.h>

#include <stdexcept>

#include "transaction/gpu_extension.h"
#include "transaction/payload_pool.h"
#include "transaction/route_extension.h"

namespace warptlm {
namespace {

TEST(PayloadPool, AllocatesReadyToFillPayloads) {
  PayloadPool pool(128);
  tlm::tlm_generic_payload* p = pool.allocate();
  EXPECT_EQ(p->get_ref_count(), 1u);
  EXPECT_TRUE(p->has_mm());
  EXPECT_NE(p->get_data_ptr(), nullptr);
  EXPECT_EQ(p->get_data_length(), 0u);
  EXPECT_EQ(p->get_streaming_width(), 0u);
  EXPECT_EQ(p->get_byte_enable_ptr(), nullptr);
  EXPECT_EQ(p->get_response_status(), tlm::TLM_INCOMPLETE_RESPONSE);
  GpuExtension* ext = p->get_extension<GpuExtension>();
  ASSERT_NE(ext, nullptr);
  EXPECT_EQ(ext->kind, AccessKind::Load);
  EXPECT_EQ(ext->tag, 0u);
  p->get_data_ptr()[127] = 0xab;  // the buffer holds data_bytes
  p->release();
  EXPECT_EQ(pool.outstanding(), 0u);
}

TEST(PayloadPool, RecyclesReleasedPayloadsWithFreshState) {
  PayloadPool pool(64);
  tlm::tlm_generic_payload* a = pool.allocate();
  unsigned char* buffer = a->get_data_ptr();
  unsigned char other[4];
  a->set_command(tlm::TLM_WRITE_COMMAND);
  a->set_address(0x1000);
  a->set_data_ptr(other);  // an originator may point the payload elsewhere
  a->set_data_length(4);
  a->set_streaming_width(4);
  a->set_byte_enable_ptr(other);
  a->set_byte_enable_length(4);
  a->set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
  GpuExtension* ext = a->get_extension<GpuExtension>();
  ext->kind = AccessKind::Atomic;
  ext->sm = 3;
  ext->warp = 17;
  ext->pc = 0x40;
  ext->tag = 99;
  a->release();

  tlm::tlm_generic_payload* b = pool.allocate();
  EXPECT_EQ(b, a);  // the same object, recycled
  EXPECT_EQ(pool.created(), 1u);
  EXPECT_EQ(b->get_data_ptr(), buffer);  // back to its own buffer
  EXPECT_EQ(b->get_command(), tlm::TLM_IGNORE_COMMAND);
  EXPECT_EQ(b->get_address(), 0u);
  EXPECT_EQ(b->get_data_length(), 0u);
  EXPECT_EQ(b->get_byte_enable_ptr(), nullptr);
  EXPECT_EQ(b->get_byte_enable_length(), 0u);
  EXPECT_EQ(b->get_response_status(), tlm::TLM_INCOMPLETE_RESPONSE);
  EXPECT_EQ(b->get_extension<GpuExtension>(), ext);  // the same extension, reset
  EXPECT_EQ(ext->kind, AccessKind::Load);
  EXPECT_EQ(ext->sm, 0u);
  EXPECT_EQ(ext->warp, 0u);
  EXPECT_EQ(ext->pc, 0u);
  EXPECT_EQ(ext->tag, 0u);
  b->release();
}

TEST(PayloadPool, CountsOutstandingPayloadsAndGrowsOnDemand) {
  PayloadPool pool(32);
  tlm::tlm_generic_payload* p[3] = {pool.allocate(), pool.allocate(), pool.allocate()};
  EXPECT_EQ(pool.outstanding(), 3u);
  EXPECT_EQ(pool.created(), 3u);
  EXPECT_NE(p[0]->get_data_ptr(), p[1]->get_data_ptr());  // each owns its buffer
  p[1]->acquire();  // a second holder: still outstanding after one release
  p[1]->release();
  EXPECT_EQ(pool.outstanding(), 3u);
  p[1]->release();
  p[0]->release();
  EXPECT_EQ(pool.outstanding(), 1u);  // p[2] leaked so far
  // Two allocations reuse the two freed payloads before making a new one.
  tlm::tlm_generic_payload* q0 = pool.allocate();
  tlm::tlm_generic_payload* q1 = pool.allocate();
  EXPECT_EQ(pool.created(), 3u);
  tlm::tlm_generic_payload* q2 = pool.allocate();
  EXPECT_EQ(pool.created(), 4u);
  for (auto* q : {q0, q1, q2, p[2]}) q->release();
  EXPECT_EQ(pool.outstanding(), 0u);
}

// The extension a foreign target finds through get_extension is the one GPU
// components reach directly inside the pooled payload.
TEST(PayloadPool, ThePooledExtensionIsTheAttachedOne) {
  PayloadPool pool(64);
  PooledPayload* p = pool.allocate();
  EXPECT_EQ(p->get_extension<GpuExtension>(), &p->gpu);
  EXPECT_EQ(gpu_extension(*p), &p->gpu);
  p->gpu.tag = 42;
  EXPECT_EQ(p->get_extension<GpuExtension>()->tag, 42u);
  p->release();
  PooledPayload* again = pool.allocate();
  ASSERT_EQ(again, p);
  EXPECT_EQ(again->get_extension<GpuExtension>(), &again->gpu);  // still attached, reset
  EXPECT_EQ(again->gpu.tag, 0u);
  again->release();
}

// A payload made elsewhere is no PooledPayload: its own extension (or none) is used.
TEST(PayloadPool, ForeignPayloadsUseTheirOwnExtension) {
  tlm::tlm_generic_payload foreign;
  EXPECT_EQ(PooledPayload::of(foreign), nullptr);
  EXPECT_EQ(gpu_extension(foreign), nullptr);
  GpuExtension ext;
  ext.tag = 7;
  foreign.set_extension(&ext);
  EXPECT_EQ(gpu_extension(foreign), &ext);
  foreign.clear_extension(&ext);
}

struct RouterA {
  static constexpr unsigned kRouteSlot = 0;
};
struct RouterB {
  static constexpr unsigned kRouteSlot = 1;
};

// Two routing components on one path keep separate return ports, in a pooled
// payload's slots or in a foreign payload's extensions.
TEST(PayloadPool, RoutesKeepOnePortPerRouter) {
  PayloadPool pool(64);
  PooledPayload* p = pool.allocate();
  tlm::tlm_generic_payload foreign;
  for (tlm::tlm_generic_payload* t : {static_cast<tlm::tlm_generic_payload*>(p), &foreign}) {
    set_route<RouterA>(*t, 3);
    set_route<RouterB>(*t, 5);
    EXPECT_EQ(route_of<RouterA>(*t), 3u);
    EXPECT_EQ(route_of<RouterB>(*t), 5u);
    set_route<RouterA>(*t, 1);
    EXPECT_EQ(route_of<RouterA>(*t), 1u);
    EXPECT_EQ(route_of<RouterB>(*t), 5u);
  }
  EXPECT_EQ(foreign.get_extension<RouteExtension<RouterA>>()->input, 1u);
  EXPECT_EQ(p->get_extension<RouteExtension<RouterA>>(), nullptr);  // kept in the slot
  EXPECT_EQ(p->route[RouterB::kRouteSlot], 5u);
  p->release();
}

TEST(PayloadPool, RejectsAnEmptyBuffer) {
  try {
    PayloadPool pool(0);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("data_bytes"), std::string::npos);
  }
}

TEST(GpuExtension, ClonesAndCopiesEveryField) {
  GpuExtension a;
  a.kind = AccessKind::Writeback;
  a.sm = 5;
  a.warp = 9;
  a.pc = 0x88;
  a.tag = 1234;
  std::unique_ptr<GpuExtension> b(static_cast<GpuExtension*>(a.clone()));
  EXPECT_EQ(b->kind, AccessKind::Writeback);
  EXPECT_EQ(b->tag, 1234u);
  GpuExtension c;
  c.copy_from(a);
  EXPECT_EQ(c.sm, 5u);
  EXPECT_EQ(c.warp, 9u);
  EXPECT_EQ(c.pc, 0x88u);
  EXPECT_STREQ(access_kind_name(AccessKind::Load), "load");
  EXPECT_STREQ(access_kind_name(AccessKind::Store), "store");
  EXPECT_STREQ(access_kind_name(AccessKind::Atomic), "atomic");
  EXPECT_STREQ(access_kind_name(AccessKind::Fetch), "fetch");
  EXPECT_STREQ(access_kind_name(AccessKind::Writeback), "writeback");
}

}  // namespace
}  // namespace warptlm
