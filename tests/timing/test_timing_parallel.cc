// Parallel SMs (docs/parallel-sms.md): a timing run on 2 or 3 host threads
// gives exactly the statistics, outputs and faults of the run on one, for
// every scenario on fermi and small (printf's output too), under several
// reconvergence schemes and
// under compaction; a runaway kernel stops at the same instruction, and a
// fault raised in the parallel phase names the same thread as the serial run.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <tuple>

#include "common/systemc_child.h"
#include "common/temp_path.h"
#include "config/platform_config.h"
#include "exec/prepared_program.h"
#include "frontend/program.h"
#include "frontend/ptx_parser.h"
#include "gpu/timing_run.h"
#include "scenario.h"

namespace warptlm::scenarios {
namespace {

// A run's whole outcome: every statistic, every output buffer's bytes (a
// hash), or the fault's message.
nlohmann::json outcome(const Program& program, const std::string& entry, LaunchSpec launch,
                       const PlatformConfig& config) {
  nlohmann::json j;
  try {
    j["stats"] = run_timing(program, entry, launch, config);
  } catch (const KernelFault& f) {
    j["fault"] = f.what();
  }
  j["output"] = launch.output;  // printf
  for (const HostBuffer& b : launch.buffers) {
    uint64_t h = 1469598103934665603ull;  // FNV-1a
    for (uint8_t c : b.bytes) h = (h ^ c) * 1099511628211ull;
    j["buffers"][b.name] = h;
  }
  return j;
}

// The outcome of a run on `threads` host threads, each in its own child process.
nlohmann::json run_on(unsigned threads, const std::function<nlohmann::json(PlatformConfig&)>& run,
                      PlatformConfig config) {
  const std::string path = warptlm::testing::temp_path("parallel.json");
  warptlm::testing::in_child_process([&] {
    config.host_threads = threads;
    std::ofstream(path) << run(config).dump();
  });
  std::ifstream file(path);
  nlohmann::json j = nlohmann::json::parse(file);
  std::remove(path.c_str());
  return j;
}

// Compares the outcome on 2 and, with `three`, 3 threads (more threads
// than this machine's 2 cores) with the one on 1.
void expect_same_on_every_thread_count(const std::function<nlohmann::json(PlatformConfig&)>& run,
                                       const PlatformConfig& config, const std::string& what,
                                       bool three = true) {
  const nlohmann::json one = run_on(1, run, config);
  ASSERT_TRUE(one.contains("stats") || one.contains("fault")) << what;
  for (unsigned threads : {2u, 3u}) {
    if (threads == 3 && !three) break;
    const nlohmann::json many = run_on(threads, run, config);
    EXPECT_EQ(many.value("fault", ""), one.value("fault", "")) << what << ", " << threads;
    EXPECT_EQ(many.at("buffers"), one.at("buffers")) << what << ", " << threads << " threads";
    EXPECT_EQ(many.at("output"), one.at("output")) << what << ", " << threads << " threads";
    if (!one.contains("stats")) continue;
    const nlohmann::json& a = one.at("stats");
    const nlohmann::json& b = many.at("stats");
    for (auto it = a.begin(); it != a.end(); ++it)
      EXPECT_EQ(b.value(it.key(), nlohmann::json()), it.value())
          << what << ": statistic " << it.key() << " on " << threads << " threads";
    EXPECT_EQ(a.size(), b.size()) << what;
  }
}

// index into all(), preset, reconvergence scheme, compaction, whether on 3 threads too
using ParallelParam = std::tuple<size_t, std::string, std::string, std::string, bool>;

class ParallelTiming : public ::testing::TestWithParam<ParallelParam> {};

TEST_P(ParallelTiming, GivesTheSingleThreadedRunExactly) {
  const Scenario& s = all()[std::get<0>(GetParam())];
  PlatformConfig config = preset(std::get<1>(GetParam()));
  config.reconvergence = std::get<2>(GetParam());
  config.compaction = std::get<3>(GetParam());
  const auto& livelocks = s.livelocks_under;
  if (std::find(livelocks.begin(), livelocks.end(), config.reconvergence) != livelocks.end())
    config.instruction_budget = 100000;  // ends in the same runaway fault
  expect_same_on_every_thread_count(
      [&](PlatformConfig& c) {
        Program program = prepare_program(parse_ptx(scenario_ptx(s), s.source_dir + "/kernel.ptx"),
                                          c.reconvergence);
        return outcome(program, s.entry, s.make_launch(resolve_size(s, "test"), 1), c);
      },
      config, s.name, std::get<4>(GetParam()));
}

std::vector<ParallelParam> params() {
  std::vector<ParallelParam> v;
  for (size_t i = 0; i < all().size(); ++i) {
    v.emplace_back(i, "fermi", "ipdom", "none", false);
    v.emplace_back(i, "small", "mp_ipdom", "none", false);
  }
  for (const char* name : {"reduction", "bfs", "short_circuit", "spinlock"}) {
    for (size_t i = 0; i < all().size(); ++i) {
      if (all()[i].name != name) continue;
      v.emplace_back(i, "fermi", "ipdom", "none", true);  // on 3 threads too
      v.emplace_back(i, "fermi", "sorted_list", "none", true);
      v.emplace_back(i, "small", "dual_path", "none", false);
      v.emplace_back(i, "fermi", "ipdom", "tbc", false);
    }
  }
  return v;
}

INSTANTIATE_TEST_SUITE_P(Scenarios, ParallelTiming, ::testing::ValuesIn(params()),
                         [](const ::testing::TestParamInfo<ParallelParam>& info) {
                           return all()[std::get<0>(info.param)].name + "_" +
                                  std::get<1>(info.param) + "_" + std::get<2>(info.param) + "_" +
                                  std::get<3>(info.param) + (std::get<4>(info.param) ? "_to3" : "");
                         });

// The budget is spent in the middle of a busy cycle: the SMs then tick
// serially, and the fault names the same warp instruction.
TEST(ParallelTimingFaults, ARunawayKernelStopsAtTheSameInstruction) {
  const Scenario& s = find("reduction");
  PlatformConfig config = preset("fermi");
  config.instruction_budget = 3001;
  expect_same_on_every_thread_count(
      [&](PlatformConfig& c) {
        Program program = finalize(parse_ptx(scenario_ptx(s), s.source_dir + "/kernel.ptx"));
        return outcome(program, s.entry, s.make_launch(resolve_size(s, "test"), 1), c);
      },
      config, "reduction, budget 3001");
}

// Thread 200 of every CTA stores past the end of shared memory after some
// work: the fault comes from the parallel phase of several SMs in one cycle,
// and the lowest SM's is the one reported, as in the serial run.
constexpr const char* kSharedOverrun = R"(
.version 7.0
.target sm_70
.address_size 64
.visible .entry overrun(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .reg .pred %p<2>;
  .shared .align 4 .b8 buf[1024];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, 0;
  mov.u32 %r3, 0;
LOOP:
  add.u32 %r2, %r2, %r1;
  add.u32 %r3, %r3, 1;
  setp.lt.u32 %p1, %r3, 40;
  @%p1 bra LOOP;
  shl.b32 %r4, %r1, 2;
  setp.eq.u32 %p1, %r1, 200;
  @%p1 add.u32 %r4, %r4, 4096;
  mov.u32 %r5, buf;
  add.u32 %r5, %r5, %r4;
  st.shared.u32 [%r5], %r2;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  mul.wide.u32 %rd2, %r1, 4;
  add.u64 %rd1, %rd1, %rd2;
  st.global.u32 [%rd1], %r2;
  ret;
}
)";

TEST(ParallelTimingFaults, AFaultInTheParallelPhaseIsTheSerialRunsFault) {
  PlatformConfig config = preset("fermi");
  expect_same_on_every_thread_count(
      [&](PlatformConfig& c) {
        Program program = finalize(parse_ptx(kSharedOverrun, "overrun.ptx"));
        LaunchSpec l;
        l.grid = {60, 1, 1};
        l.block = {256, 1, 1};
        HostBuffer out;
        out.name = "out";
        out.bytes.assign(256 * 4, 0);
        l.buffers.push_back(out);
        l.args.push_back(KernelArg::buffer_arg(0));
        nlohmann::json j = outcome(program, "overrun", l, c);
        EXPECT_NE(j.value("fault", "").find("shared memory"), std::string::npos) << j.dump();
        return j;
      },
      config, "shared-memory overrun");
}

}  // namespace
}  // namespace warptlm::scenarios
