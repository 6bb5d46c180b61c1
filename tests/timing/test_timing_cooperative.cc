// Cooperative launches in the timing model, AT and LT (tests/data/ptx/coop):
// the GPU's registers carry the grid workspace, every CTA is resident, and
// the results equal the functional run's; a grid larger than the SMs hold at
// once is refused at the doorbell with the functional executor's words.
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

const std::string kCoopPtx = std::string(WARPTLM_TEST_DATA) + "/ptx/coop/coop.sm75.ptx";

LaunchSpec stencil_launch(uint32_t ctas) {
  const int n = int(ctas) * 64 - 3;
  std::vector<int32_t> x(n);
  for (int i = 0; i < n; ++i) x[i] = (i * 13) % 7 - 3;
  LaunchSpec l;
  l.grid = {ctas, 1, 1};
  l.block = {64, 1, 1};
  l.buffers = {typed_buffer("x", x), typed_buffer("y", std::vector<int32_t>(n))};
  l.args = {KernelArg::buffer_arg(0), KernelArg::buffer_arg(1),
            KernelArg::scalar(Type::S32, uint32_t(n)), KernelArg::scalar(Type::S32, 5)};
  l.cooperative = true;
  return l;
}

TEST(TimingCooperative, AtAndLtMatchTheFunctionalRun) {
  for (const char* coding : {"at", "lt"}) {
    SCOPED_TRACE(coding);
    in_child_process([&] {
      const Module m = parse_ptx_file(kCoopPtx);
      const Program p = prepare_program(m, "ipdom");
      PlatformConfig config = preset("small");  // 2 SMs x 4 CTAs
      config.coding_style = coding;
      LaunchSpec functional = stencil_launch(8), timing = stencil_launch(8);
      run_functional(p, "grid_stencil", functional, config.exec_config());
      const nlohmann::json stats = run_timing(p, "grid_stencil", timing, config);
      for (size_t i = 0; i < functional.buffers.size(); ++i)
        EXPECT_TRUE(functional.buffers[i].bytes == timing.buffers[i].bytes) << "buffer " << i;
      EXPECT_GT(stats.at("cycles").get<uint64_t>(), 0u);
    });
  }
}

TEST(TimingCooperative, ATooLargeGridIsRefusedAsInFunctionalMode) {
  in_child_process([&] {
    const Module m = parse_ptx_file(kCoopPtx);
    const Program p = prepare_program(m, "ipdom");
    const PlatformConfig config = preset("small");
    LaunchSpec functional = stencil_launch(9), timing = stencil_launch(9);
    std::string f_what, t_what;
    try {
      run_functional(p, "grid_stencil", functional, config.exec_config());
    } catch (const std::invalid_argument& e) {
      f_what = e.what();
    }
    try {
      run_timing(p, "grid_stencil", timing, config);
    } catch (const std::invalid_argument& e) {
      t_what = e.what();
    }
    EXPECT_NE(f_what.find("its 9 CTAs must all be resident at once"), std::string::npos) << f_what;
    EXPECT_EQ(f_what, t_what);
  });
}

}  // namespace
}  // namespace warptlm
