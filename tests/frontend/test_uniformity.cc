// CTA uniformity (frontend/uniformity.h) on clang -O3 PTX of
// tests/data/ptx/uniformity/uniformity.cu: each kernel's conditional
// branches in PC order, U where every thread of a CTA decides alike, V where
// they may not. The expectations were read off the PTX (see the kernel's
// comment in the source); a V read as U would let warps run apart at a
// branch that splits them.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "frontend/finalizer.h"
#include "frontend/ptx_parser.h"

namespace warptlm {
namespace {

std::map<std::string, std::string> labels(const Program& p) {
  std::map<std::string, std::string> out;
  for (const BranchInfo& b : p.branches) {
    const Function& fn = p.module.function_at(b.pc);
    if (b.conditional) out[fn.name] += b.cta_uniform ? 'U' : 'V';
  }
  return out;
}

TEST(Uniformity, ClangKernels) {
  const Program p = finalize(
      parse_ptx_file(std::string(WARPTLM_TEST_DATA) + "/ptx/uniformity/uniformity.O3.ptx"));
  const std::map<std::string, std::string> got = labels(p);
  // clang unrolls the loops by four (a remainder loop, the unrolled loop's
  // exit and back edge, and the guards around them).
  const std::map<std::string, std::string> want = {
      {"loop_on_parameter", "UUUUU"},
      {"check_on_tid", "V"},
      {"loop_inside_check", "VUUUU"},  // the counter lives only inside the check
      {"loop_on_tid", "VVVVV"},
      {"value_after_varying_loop", "VV"},  // the loop's count is read after it
      {"loop_on_loaded_bound", "VV"},
      {"check_on_ctaid", "U"},
      {"shared_reduction", "UVUV"},  // ntid < 2, tid == 0, the stride loop, tid < stride
  };
  for (const auto& [kernel, labels] : want) {
    ASSERT_TRUE(got.count(kernel)) << kernel;
    EXPECT_EQ(got.at(kernel), labels) << kernel;
  }
}

}  // namespace
}  // namespace warptlm
