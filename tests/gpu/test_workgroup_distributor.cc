// The workgroup distributor against fake SMs: occupancy limits by each
// resource (exact resident counts), dispatch order and round-robin, refill on
// retirement, time-weighted occupancy, faults, and CTAs that never fit.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>

#include "common/systemc_child.h"
#include "fake_sm.h"
#include "gpu/workgroup_distributor.h"

namespace warptlm {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;
using testing::FakeSm;
using testing::in_child_process;

const sc_time kCycle(1, SC_NS);

// The distributor and `sms` fake SMs, each holding its CTAs for hold[i] (zero: forever).
struct Platform {
  Platform(const PlatformConfig& config, std::vector<sc_time> hold)
      : distributor("distributor", config, kCycle) {
    for (unsigned i = 0; i < config.num_sms; ++i) {
      sms.push_back(std::make_unique<FakeSm>(("sm" + std::to_string(i)).c_str(), i, hold.at(i)));
      distributor.dispatch.bind(sms.back()->dispatch);
      sms.back()->report.bind(distributor);
    }
  }
  WorkgroupDistributor distributor;
  std::vector<std::unique_ptr<FakeSm>> sms;
};

PlatformConfig config_with(unsigned sms) {
  PlatformConfig c;
  c.num_sms = sms;
  return c;
}

KernelLaunch launch_of(uint32_t grid_x, CtaResources per_cta) {
  KernelLaunch l;
  l.id = 1;
  l.grid = Dim3{grid_x, 1, 1};
  l.per_cta = per_cta;
  return l;
}

// Starts `launch` at time 0 and simulates `for_time`.
void run(Platform& p, const KernelLaunch& launch, sc_time for_time) {
  p.distributor.start(launch);
  sc_core::sc_start(for_time);
}

struct LimitCase {
  const char* name;
  void (*configure)(SmConfig&);
  CtaResources cta;
  unsigned per_sm;  // derivation in the comment of each case
};

// Defaults: sm.ctas 8, warps 32, threads 1024 (32 warp slots), registers 16384, shared 32768.
const LimitCase kLimits[] = {
    // CTA slots: 3 slots; one warp, nothing else: 3.
    {"cta_slots", [](SmConfig& s) { s.ctas = 3; }, {32, 1, 0, 0}, 3},
    // Warps: 8 slots / 3 warps per CTA = 2 (6 warps; a third needs 9 > 8).
    {"warps", [](SmConfig& s) { s.warps = 8; }, {96, 3, 0, 0}, 2},
    // Threads: 256 threads = min(32, 256 / 32) = 8 warp slots / 3 = 2.
    {"threads", [](SmConfig& s) { s.threads = 256; }, {96, 3, 0, 0}, 2},
    // Registers: 16384 / 5000 = 3 (15000; a fourth needs 20000).
    {"registers", [](SmConfig&) {}, {32, 1, 5000, 0}, 3},
    // Shared memory: 32768 / 10000 = 3 (30000; a fourth needs 40000).
    {"shared_memory", [](SmConfig&) {}, {32, 1, 0, 10000}, 3},
};

TEST(WorkgroupDistributor, ResidentCtasAreLimitedByEachResource) {
  for (const LimitCase& c : kLimits) {
    SCOPED_TRACE(c.name);
    in_child_process([&] {
      PlatformConfig config = config_with(2);
      c.configure(config.sm);
      Platform p(config, {sc_time(), sc_time()});
      KernelLaunch l = launch_of(20, c.cta);
      run(p, l, sc_time(50, SC_NS));
      for (unsigned i = 0; i < 2; ++i) {
        EXPECT_EQ(p.distributor.resident_ctas(i), c.per_sm);
        EXPECT_EQ(p.distributor.resident_warps(i), c.per_sm * c.cta.warps);
        EXPECT_EQ(p.sms[i]->received.size(), c.per_sm);
      }
      EXPECT_TRUE(p.distributor.running());  // nothing retires: the rest waits
      DistributorStats st = p.distributor.stats();
      EXPECT_EQ(st.theoretical_ctas, c.per_sm);
      EXPECT_EQ(st.ctas_dispatched, 2u * c.per_sm);
    });
  }
}

TEST(WorkgroupDistributor, OneCtaPerSmPerCycleInLinearOrder) {
  in_child_process([] {
    PlatformConfig config = config_with(2);
    config.sm.ctas = 3;
    Platform p(config, {sc_time(), sc_time()});
    KernelLaunch l = launch_of(4, {32, 1, 0, 0});
    l.grid = Dim3{2, 2, 1};
    run(p, l, sc_time(10, SC_NS));
    // Round at 0 ns: CTA 0 -> SM0, 1 -> SM1; round at 1 ns: 2 -> SM0, 3 -> SM1.
    const auto& a = p.sms[0]->received;
    const auto& b = p.sms[1]->received;
    ASSERT_EQ(a.size(), 2u);
    ASSERT_EQ(b.size(), 2u);
    EXPECT_EQ(a[0].linear, 0u);
    EXPECT_EQ(a[0].when, sc_time(0, SC_NS));
    EXPECT_EQ(b[0].linear, 1u);
    EXPECT_EQ(b[0].when, sc_time(0, SC_NS));
    EXPECT_EQ(a[1].linear, 2u);
    EXPECT_EQ(a[1].when, sc_time(1, SC_NS));
    EXPECT_EQ(b[1].linear, 3u);
    // ctaid from linear 3 in a 2x2 grid: (3 % 2, 3 / 2) = (1, 1).
    EXPECT_EQ(b[1].ctaid.x, 1u);
    EXPECT_EQ(b[1].ctaid.y, 1u);
    EXPECT_EQ(b[1].ctaid.z, 0u);
  });
}

TEST(WorkgroupDistributor, SmallGridsSpreadAndRoundsRotate) {
  in_child_process([] {
    // 3 SMs with one CTA slot each; SM0 holds a CTA 10 ns, SM1 and SM2 20 ns; 6 CTAs.
    // 0 ns: 0 -> SM0, 1 -> SM1, 2 -> SM2 (next round starts at SM0).
    // 10 ns: SM0 frees: 3 -> SM0; the next round starts after SM0, at SM1.
    // 20 ns: all three free at once: 4 -> SM1, 5 -> SM2 (a fixed start at SM0
    // would give 4 to SM0 and 5 to SM1).
    PlatformConfig config = config_with(3);
    config.sm.ctas = 1;
    Platform p(config, {sc_time(10, SC_NS), sc_time(20, SC_NS), sc_time(20, SC_NS)});
    KernelLaunch l = launch_of(6, {32, 1, 0, 0});
    run(p, l, sc_time(100, SC_NS));
    auto linears = [&](unsigned sm) {
      std::vector<uint64_t> v;
      for (const auto& r : p.sms[sm]->received) v.push_back(r.linear);
      return v;
    };
    EXPECT_EQ(linears(0), (std::vector<uint64_t>{0, 3}));
    EXPECT_EQ(linears(1), (std::vector<uint64_t>{1, 4}));
    EXPECT_EQ(linears(2), (std::vector<uint64_t>{2, 5}));
    EXPECT_EQ(p.sms[1]->received[1].when, sc_time(20, SC_NS));
    EXPECT_FALSE(p.distributor.running());  // all 6 retired by 40 ns
  });
}

TEST(WorkgroupDistributor, RetirementsRefillAndOccupancyIsTimeWeighted) {
  in_child_process([] {
    // 2 SMs, one CTA slot each, CTAs of 2 warps held 10 ns, 3 CTAs:
    // SM0 runs CTA 0 over [0, 10) and CTA 2 over [10, 20); SM1 runs CTA 1 over
    // [0, 10). The launch ends at 20 ns. Means over the 20 ns: SM0 1 CTA / 2
    // warps, SM1 0.5 CTA / 1 warp; GPU: 0.75 CTAs, 1.5 warps, over 32 warp
    // slots = 0.046875.
    PlatformConfig config = config_with(2);
    config.sm.ctas = 1;
    Platform p(config, {sc_time(10, SC_NS), sc_time(10, SC_NS)});
    KernelLaunch l = launch_of(3, {64, 2, 0, 0});
    sc_time finished_at;
    struct Watch : sc_core::sc_module {
      Watch(sc_core::sc_module_name n, const sc_core::sc_event& e, sc_time& t)
          : sc_module(n), e_(e), t_(t) {
        SC_HAS_PROCESS(Watch);
        SC_THREAD(run);
      }
      void run() {
        wait(e_);
        t_ = sc_core::sc_time_stamp();
      }
      const sc_core::sc_event& e_;
      sc_time& t_;
    } watch("watch", p.distributor.finished_event(), finished_at);
    run(p, l, sc_time(100, SC_NS));
    EXPECT_EQ(finished_at, sc_time(20, SC_NS));
    EXPECT_FALSE(p.distributor.running());
    EXPECT_FALSE(p.distributor.fault().has_value());
    ASSERT_EQ(p.sms[0]->received.size(), 2u);
    EXPECT_EQ(p.sms[0]->received[1].linear, 2u);
    EXPECT_EQ(p.sms[0]->received[1].when, sc_time(10, SC_NS));
    DistributorStats st = p.distributor.stats();
    EXPECT_DOUBLE_EQ(st.per_sm[0].ctas_mean, 1.0);
    EXPECT_DOUBLE_EQ(st.per_sm[0].warps_mean, 2.0);
    EXPECT_DOUBLE_EQ(st.per_sm[1].ctas_mean, 0.5);
    EXPECT_DOUBLE_EQ(st.per_sm[1].warps_mean, 1.0);
    EXPECT_EQ(st.per_sm[0].ctas_dispatched, 2u);
    nlohmann::json j = st.to_json();
    EXPECT_DOUBLE_EQ(j["ctas_mean"].get<double>(), 0.75);
    EXPECT_DOUBLE_EQ(j["warps_mean"].get<double>(), 1.5);
    EXPECT_EQ(j["warps_max"].get<unsigned>(), 2u);
    EXPECT_EQ(j["ctas_dispatched"].get<uint64_t>(), 3u);
    EXPECT_DOUBLE_EQ(j["warp_occupancy"].get<double>(), 0.046875);
    EXPECT_DOUBLE_EQ(j["sm1.ctas_mean"].get<double>(), 0.5);
    // Idle time after the launch does not dilute the means.
    EXPECT_DOUBLE_EQ(p.distributor.stats().per_sm[1].ctas_mean, 0.5);
  });
}

TEST(WorkgroupDistributor, TheFirstFaultEndsTheLaunch) {
  in_child_process([] {
    // One CTA slot per SM, 10 CTAs. SM1 faults at 5 ns, SM0 at 6 ns; SM0's CTA
    // retires at 8 ns: its slot comes back, but no CTA is dispatched after the fault.
    PlatformConfig config = config_with(2);
    config.sm.ctas = 1;
    Platform p(config, {sc_time(8, SC_NS), sc_time()});
    p.sms[1]->schedule_fault(sc_time(5, SC_NS), "first");
    p.sms[0]->schedule_fault(sc_time(6, SC_NS), "second");
    KernelLaunch l = launch_of(10, {32, 1, 0, 0});
    run(p, l, sc_time(50, SC_NS));
    EXPECT_FALSE(p.distributor.running());
    ASSERT_TRUE(p.distributor.fault().has_value());
    EXPECT_STREQ(p.distributor.fault()->what(), "first");
    EXPECT_EQ(p.sms[0]->received.size(), 1u);
    EXPECT_EQ(p.sms[1]->received.size(), 1u);
    EXPECT_EQ(p.distributor.resident_ctas(0), 0u);
    EXPECT_EQ(p.distributor.resident_ctas(1), 1u);  // SM1 never gave its CTA back
    try {
      p.distributor.start(l);
      ADD_FAILURE() << "no exception";
    } catch (const std::invalid_argument& e) {
      EXPECT_STREQ(e.what(), "launch: SM 1 still holds 1 CTAs of a launch that ended in a fault");
    }
  });
}

TEST(WorkgroupDistributor, ACtaThatNeverFitsNamesTheResource) {
  in_child_process([] {
    PlatformConfig config = config_with(1);
    config.sm.warps = 16;
    config.sm.registers = 32768;
    Platform p(config, {sc_time()});
    KernelLaunch l = launch_of(1, {640, 20, 0, 0});  // 640 threads = 20 warps of 32
    auto problem = p.distributor.check_fit(l);
    ASSERT_TRUE(problem.has_value());
    EXPECT_EQ(problem->resource, SmResource::Warps);
    EXPECT_EQ(problem->message,
              "a CTA needs 20 warp slots (640 threads in warps of 32), an SM has 16 (min(sm.warps "
              "= 16, sm.threads / warp_size = 1024 / 32))");

    l.per_cta = {512, 16, 68 * 512, 0};  // 68 registers per thread x 512 threads = 34816
    problem = p.distributor.check_fit(l);
    ASSERT_TRUE(problem.has_value());
    EXPECT_EQ(problem->resource, SmResource::Registers);
    EXPECT_EQ(problem->message,
              "a CTA needs 34816 registers (68 per thread x 512 threads), an SM has 32768 "
              "(sm.registers)");

    l.per_cta = {32, 1, 0, 49152};
    l.dynamic_shared = 32768;
    problem = p.distributor.check_fit(l);
    ASSERT_TRUE(problem.has_value());
    EXPECT_EQ(problem->resource, SmResource::SharedMemory);
    EXPECT_EQ(problem->message,
              "a CTA needs 49152 bytes of shared memory (16384 static + 32768 dynamic), an SM "
              "has 32768 (sm.shared_memory)");
    try {
      p.distributor.start(l);
      ADD_FAILURE() << "no exception";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()), "launch: " + problem->message);
    }
    EXPECT_FALSE(p.distributor.running());

    l.per_cta = {32, 1, 32768, 32768};  // exactly an SM's worth fits
    EXPECT_FALSE(p.distributor.check_fit(l).has_value());
  });
}

}  // namespace
}  // namespace warptlm
