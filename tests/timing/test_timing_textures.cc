// Texture and surface objects in the timing model (tests/data/ptx/textures):
// the same results as the functional runs, with and without compaction and
// through a platform memory bound to the GPU's socket; the texels of a fetch
// reach the L1 as the lines they touch (texture_transactions), and a
// texture read twice hits the second time.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/systemc_child.h"
#include "common/texture_launches.h"
#include "config/platform_config.h"
#include "exec/functional_executor.h"
#include "exec/prepared_program.h"
#include "frontend/ptx_parser.h"
#include "gpu/timing_run.h"

namespace warptlm {
namespace {
using namespace warptlm::testing;

ImageDesc linear_mirror() {
  ImageDesc s;
  s.filter = FilterMode::Linear;
  s.address[0] = s.address[1] = AddressMode::Mirror;
  s.normalized_coords = true;
  return s;
}

void expect_matches(const std::string& kernel, const LaunchSpec& launch,
                    const std::string& compaction, bool tlm_memory = false) {
  SCOPED_TRACE(kernel + " compaction " + compaction + (tlm_memory ? " (TLM memory)" : ""));
  in_child_process([&] {
    const Module m = parse_ptx_file(kTextureDir + "textures.nvcc.ptx");
    const Program p = prepare_program(m, "ipdom");
    PlatformConfig config = preset("small");
    config.compaction = compaction;
    const std::string entry = resolve_kernel_name(m, kernel);
    LaunchSpec functional = launch, timing = launch;
    run_functional(p, entry, functional, config.exec_config());
    TimingOptions options;
    options.tlm_memory = tlm_memory;
    const nlohmann::json stats = run_timing(p, entry, timing, config, nullptr, nullptr, options);
    for (size_t i = 0; i < launch.buffers.size(); ++i)
      EXPECT_TRUE(functional.buffers[i].bytes == timing.buffers[i].bytes) << "buffer " << i;
    if (kernel == "sample2d" && compaction == "none") {
      // 3x3 CTAs of 16x8 threads over 40x20 samples: each column of CTAs
      // has 10 warps with samples (the last CTA row's lower two warps have
      // none).
      EXPECT_EQ(stats.at("sm.texture_instructions").get<uint64_t>(), 30u);
      EXPECT_GT(stats.at("sm.texture_transactions").get<uint64_t>(),
                stats.at("sm.texture_instructions").get<uint64_t>());
    }
  });
}

TEST(TimingTextures, SamplesMatchTheFunctionalRun) {
  for (const char* compaction : {"none", "tbc"})
    expect_matches("sample2d",
                   sample2d_launch(linear_mirror(), 40, 20, -0.3f, -0.45f, 1.0f / 16, 1.0f / 8),
                   compaction);
}

TEST(TimingTextures, SurfacesMatchTheFunctionalRun) {
  for (const char* compaction : {"none", "tbc"})
    expect_matches("invert_shifted", invert_launch(3), compaction);
}

TEST(TimingTextures, ThroughABoundPlatformMemory) {
  expect_matches("sample2d",
                 sample2d_launch(linear_mirror(), 40, 20, -0.3f, -0.45f, 1.0f / 16, 1.0f / 8),
                 "none", true);
  expect_matches("invert_shifted", invert_launch(0), "none", true);
}

}  // namespace
}  // namespace warptlm
