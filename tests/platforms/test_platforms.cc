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
#include "platform/elaboration_view.h"
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
    for (const char* scenario : {"collatz", "bfs", "reduction"})
      in_child_process([&] {
        const nlohmann::json s = run_checked(load_platform("standalone"), {scenario}, style);
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

namespace warptlm {
namespace {

// The bound targets of `socket` in an elaboration view.
std::vector<std::string> bound_to(const nlohmann::json& view, const std::string& socket) {
  for (const nlohmann::json& s : view["bindings"])
    if (s["name"] == socket) return s["bound_to"].get<std::vector<std::string>>();
  ADD_FAILURE() << "no socket " << socket;
  return {};
}

TEST(ElaborationView, SocIsReadFromTheElaboratedObjects) {
  const std::string out = testing::temp_path("soc_view.json");
  in_child_process([&] {
    PlatformDescription d = load_platform("soc");
    apply_platform_settings(d, {"gpu0.num_sms=3", "coding_style=at"});
    std::ofstream(out) << elaborate_platform(d).dump();
  });
  nlohmann::json v;
  std::ifstream(out) >> v;
  ASSERT_FALSE(v.empty());
  EXPECT_EQ(v["top"], "soc");
  std::vector<std::string> modules;
  for (const nlohmann::json& m : v["modules"]) modules.push_back(m["name"]);
  EXPECT_EQ(modules, (std::vector<std::string>{"soc.host", "soc.bus", "soc.ram", "soc.gpu0"}));
  // The hierarchy goes down into the GPU (its SMs are modules of their own).
  bool sm_found = false;
  for (const nlohmann::json& c : v["hierarchy"]["children"])
    if (c["name"] == "soc.gpu0")
      for (const nlohmann::json& g : c["children"])
        sm_found = sm_found || g["name"] == "soc.gpu0.sm_2";
  EXPECT_TRUE(sm_found) << v["hierarchy"].dump();
  EXPECT_EQ(bound_to(v, "soc.host.bus"), std::vector<std::string>{"soc.bus.in"});
  EXPECT_EQ(bound_to(v, "soc.gpu0.memory"), std::vector<std::string>{"soc.bus.in"});
  EXPECT_EQ(bound_to(v, "soc.bus.out"),
            (std::vector<std::string>{"soc.ram.socket", "soc.gpu0.control"}));
  // The irq line, from the signal's two ports.
  bool irq = false;
  for (const nlohmann::json& s : v["signals"])
    if (s["signal"] == "soc.gpu0_irq") {
      irq = true;
      EXPECT_EQ(s["ports"].size(), 2u);
    }
  EXPECT_TRUE(irq);
  ASSERT_EQ(v["address_maps"]["soc.bus"].size(), 2u);
  EXPECT_EQ(v["address_maps"]["soc.bus"][1]["target"], "soc.gpu0.control");
  EXPECT_EQ(v["address_maps"]["soc.bus"][1]["base"], 0x40000000u);
  // Every field, with where its value came from.
  const nlohmann::json& gpu = v["configuration"]["soc.gpu0"];
  EXPECT_EQ(gpu["num_sms"]["value"], 3);
  EXPECT_EQ(gpu["num_sms"]["from"], "--set gpu0.num_sms=3");
  EXPECT_EQ(gpu["coding_style"]["value"], "at");
  EXPECT_EQ(gpu["coding_style"]["from"], "--set coding_style=at");
  EXPECT_EQ(gpu["warp_size"]["from"], "preset small");
  EXPECT_EQ(gpu["preset"]["from"], "builtin platform soc:26:5");
  EXPECT_EQ(v["configuration"]["soc.ram"]["size"]["value"], 0x10000000u);
  EXPECT_EQ(v["configuration"]["soc.ram"]["debug"]["from"], "default");
  EXPECT_EQ(v["configuration"]["soc.host"]["gpus"]["value"][0]["registers"], 0x40000000u);
  // The text names the same things.
  const std::string text = elaboration_text(v);
  EXPECT_NE(text.find("  soc.host.bus -> soc.bus.in\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  0x40000000..0x40000fff  soc.gpu0.control\n"), std::string::npos) << text;
  EXPECT_NE(text.find("num_sms=3 (--set gpu0.num_sms=3)"), std::string::npos) << text;
  const std::string dot = elaboration_dot(v);
  EXPECT_NE(dot.find("\"soc.gpu0\" -> \"soc.host\" [style=dashed, label=\"irq\"]"),
            std::string::npos)
      << dot;
}

TEST(ElaborationView, StandaloneAndMultiGpu) {
  const std::string a = testing::temp_path("standalone_view.json"),
                    b = testing::temp_path("multi_view.json");
  in_child_process(
      [&] { std::ofstream(a) << elaborate_platform(load_platform("standalone")).dump(); });
  in_child_process(
      [&] { std::ofstream(b) << elaborate_platform(load_platform("multi_gpu")).dump(); });
  nlohmann::json s, m;
  std::ifstream(a) >> s;
  std::ifstream(b) >> m;
  EXPECT_EQ(bound_to(s, "standalone.host.bus"),
            std::vector<std::string>{"standalone.gpu0.control"});
  EXPECT_TRUE(s["address_maps"].empty());
  EXPECT_EQ(bound_to(m, "multi_gpu.bus.out"),
            (std::vector<std::string>{"multi_gpu.ram.socket", "multi_gpu.gpu0.control",
                                      "multi_gpu.gpu1.control"}));
  EXPECT_EQ(m["configuration"]["multi_gpu.gpu1"]["num_sms"]["value"], 4);
  EXPECT_EQ(m["configuration"]["multi_gpu.gpu0"]["num_sms"]["value"], 2);
  EXPECT_EQ(m["configuration"]["multi_gpu.host"]["gpus"]["value"][1]["irq"], 1);
}

}  // namespace
}  // namespace warptlm
