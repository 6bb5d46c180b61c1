// The built-in platforms run scenarios through their host CPU (the C driver
// over the bus) in both coding styles, with outputs checked against the
// scenarios' host references; two GPUs of one platform work at the same time;
// a platform read from a file behaves as the built-in one; a fault in a job
// is reported and the platform finishes.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "common/systemc_child.h"
#include "common/temp_path.h"
#include "gpu/gpu_test_kernels.h"
#include "platform/platform_top.h"
#include "scenario.h"
#include "warptlm/gpu_regs.h"

namespace warptlm {
namespace {

using testing::in_child_process;

PlatformJob scenario_job(const std::string& gpu, const scenarios::Scenario& s, uint64_t seed = 1) {
  return {gpu, scenarios::scenario_ptx(s), s.name + ".ptx", s.entry,
          s.make_launch(scenarios::resolve_size(s, "test"), seed)};
}

// Runs `scenario` on every GPU of `platform` (in `coding_style`), checks each
// job against the host reference and returns the statistics.
nlohmann::json run_checked(PlatformDescription d, const std::vector<std::string>& scenario_names,
                           const std::string& coding_style) {
  apply_platform_settings(d, {"coding_style=" + coding_style});
  std::vector<PlatformJob> jobs;
  std::vector<LaunchSpec> inputs;
  for (size_t i = 0; i < scenario_names.size(); ++i) {
    const std::string gpu = "gpu" + std::to_string(i);
    jobs.push_back(scenario_job(gpu, scenarios::find(scenario_names[i])));
    inputs.push_back(jobs.back().launch);
  }
  const PlatformRunResult r = run_platform(d, jobs);
  EXPECT_EQ(r.jobs.size(), scenario_names.size());
  for (size_t i = 0; i < r.jobs.size(); ++i) {
    const HostJob& j = r.jobs[i];
    EXPECT_EQ(j.message, "") << scenario_names[i];
    EXPECT_EQ(j.status, WARPTLM_STATUS_DONE) << scenario_names[i];
    EXPECT_GT(j.cycles, 0u);
    const scenarios::CheckResult c = scenarios::find(scenario_names[i]).check(inputs[i], j.launch);
    EXPECT_TRUE(c.passed) << scenario_names[i] << " on " << d.name << ": " << c.message;
  }
  return r.stats;
}

// The SMs a GPU's statistics report on (keys sm0., sm1., ...).
unsigned sm_count(const nlohmann::json& gpu_stats) {
  unsigned n = 0;
  while (gpu_stats.contains("sm" + std::to_string(n) + ".warp_instructions")) ++n;
  return n;
}

class SocPlatform : public ::testing::TestWithParam<std::tuple<const char*, const char*>> {};

TEST_P(SocPlatform, RunsTheScenarioThroughTheHostAndTheRouter) {
  const auto [scenario, coding_style] = GetParam();
  in_child_process([&] {
    const nlohmann::json s = run_checked(load_platform("soc"), {scenario}, coding_style);
    // The host reached the GPU's registers and the memory through the router.
    EXPECT_GT(s["bus"]["windows"]["gpu0.control"]["writes"].get<uint64_t>(), 10u);
    EXPECT_EQ(s["bus"]["unmapped"].get<uint64_t>(), 0u);
    EXPECT_GT(s["host"]["bytes_copied_in"].get<uint64_t>(), 0u);
    EXPECT_GT(s["gpu0"]["warp_instructions"].get<uint64_t>(), 0u);
    if (std::string(coding_style) == "lt") {
      EXPECT_EQ(s["gpu0"]["memory_port.dmi_grants"].get<uint64_t>(), 1u);  // the system RAM
      EXPECT_EQ(s["ram"]["dmi_grants"].get<uint64_t>(), 1u);
      EXPECT_EQ(s["gpu0"]["lt.launches"].get<uint64_t>(), 1u);
    } else {
      EXPECT_EQ(s["gpu0"]["lt.launches"].get<uint64_t>(), 0u);  // the cycle-level model ran
      // bfs's reads miss the L2: line traffic crosses the bus into the memory.
      if (std::string(scenario) == "bfs") {
        EXPECT_GT(s["gpu0"]["memory_port.reads"].get<uint64_t>(), 0u);
        EXPECT_GT(s["ram"]["reads"].get<uint64_t>(), 0u);
      }
    }
  });
}

INSTANTIATE_TEST_SUITE_P(ScenariosAndCodingStyles, SocPlatform,
                         ::testing::Combine(::testing::Values("reduction", "bfs", "mandelbrot"),
                                            ::testing::Values("lt", "at")));

TEST(Platforms, StandaloneRunsInTheGpusOwnMemory) {
  for (const char* style : {"lt", "at"})
    in_child_process([&] {
      const nlohmann::json s = run_checked(load_platform("standalone"), {"collatz"}, style);
      EXPECT_FALSE(s.contains("bus"));
      EXPECT_GT(s["host"]["mmio_writes"].get<uint64_t>(), 10u);
    });
}

TEST(Platforms, MultiGpuRunsTwoDifferentGpusAtOnce) {
  for (const char* style : {"lt", "at"})
    in_child_process([&] {
      PlatformDescription d = load_platform("multi_gpu");
      apply_platform_settings(d, {std::string("coding_style=") + style});
      const scenarios::Scenario &a = scenarios::find("reduction"), &b = scenarios::find("bfs");
      std::vector<PlatformJob> jobs = {scenario_job("gpu0", a), scenario_job("gpu1", b)};
      const LaunchSpec in_a = jobs[0].launch, in_b = jobs[1].launch;
      const PlatformRunResult r = run_platform(d, jobs);
      ASSERT_EQ(r.jobs.size(), 2u);
      EXPECT_TRUE(a.check(in_a, r.jobs[0].launch).passed);
      EXPECT_TRUE(b.check(in_b, r.jobs[1].launch).passed);
      // Both ran at once: each was launched before the other finished.
      EXPECT_LT(r.jobs[1].launched_ns, r.jobs[0].finished_ns);
      EXPECT_LT(r.jobs[0].launched_ns, r.jobs[1].finished_ns);
      // Their own configurations: small (2 SMs) and fermi cut to 4 SMs.
      EXPECT_EQ(sm_count(r.stats["gpu0"]), 2u);
      EXPECT_EQ(sm_count(r.stats["gpu1"]), 4u);
    });
}

TEST(Platforms, AFileDescribingTheBuiltInSocBehavesTheSame) {
  const std::string file = testing::temp_path("soc_copy.yaml");
  for (const BuiltinPlatform& b : builtin_platforms())
    if (std::string(b.name) == "soc") std::ofstream(file) << b.text;
  const std::string out_a = testing::temp_path("soc_a.json"),
                    out_b = testing::temp_path("soc_b.json");
  in_child_process(
      [&] { std::ofstream(out_a) << run_checked(load_platform("soc"), {"bfs"}, "at").dump(); });
  in_child_process([&] {
    const PlatformDescription d = load_platform(file);
    EXPECT_NE(d.name.find("soc_copy"), std::string::npos);  // the file's stem
    std::ofstream(out_b) << run_checked(d, {"bfs"}, "at").dump();
  });
  nlohmann::json a, b;
  std::ifstream(out_a) >> a;
  std::ifstream(out_b) >> b;
  EXPECT_FALSE(a.empty());
  EXPECT_EQ(a, b);
}

TEST(Platforms, AKernelFaultIsTheJobsOutcomeAndThePlatformFinishes) {
  in_child_process([] {
    PlatformJob crash{"gpu0", testing::kGpuKernels, "kernels.ptx", "crash", {}};
    crash.launch.block = {32, 1, 1};
    const PlatformRunResult r = run_platform(load_platform("soc"), {crash});
    ASSERT_EQ(r.jobs.size(), 1u);
    EXPECT_EQ(r.jobs[0].status, WARPTLM_STATUS_FAULT);
    EXPECT_EQ(r.jobs[0].error, int(WARPTLM_ERROR_KERNEL_FAULT));
    EXPECT_NE(r.jobs[0].message.find("gpu0: the kernel failed with ERROR 10: "), std::string::npos)
        << r.jobs[0].message;
    EXPECT_NE(r.jobs[0].message.find("kernel 'crash'"), std::string::npos) << r.jobs[0].message;
  });
}

TEST(Platforms, AJobForAGpuTheHostDoesNotDriveIsRefused) {
  in_child_process([] {
    PlatformDescription d = load_platform("soc");
    const scenarios::Scenario& s = scenarios::find("bfs");
    try {
      run_platform(d, {scenario_job("gpu7", s)});
      ADD_FAILURE() << "accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()),
                "builtin platform soc: a job for 'gpu7', which is no GPU of the platform");
    }
  });
}

}  // namespace
}  // namespace warptlm
