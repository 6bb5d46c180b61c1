// The compiler corpus run end to end (tests/data/ptx: clang -O0..-O3 and
// nvcc with and without -G, device-function calls included): every kernel
// of every file runs under every reconvergence scheme, and each scheme's
// outputs equal ipdom's bit for bit, at warp sizes 8 to 64 (the warp-level
// kernel at 32, the width its shuffles assume). The control-flow kernel
// (divergent) is also checked against a host reference, so the comparison
// is not between equally wrong runs. exec_mask, the scheme whose program is
// rewritten most, also runs in timing mode (small preset) and must match its
// functional run. Outputs that record the order of atomics are left out
// (order_independent()).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "common/systemc_child.h"
#include "config/platform_config.h"
#include "exec/functional_executor.h"
#include "exec/prepared_program.h"
#include "frontend/ptx_parser.h"
#include "gpu/timing_run.h"
#include "simt/reconvergence_unit.h"

namespace warptlm {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> corpus_files() {
  std::vector<std::string> files;
  for (const char* sub : {"clang", "nvcc"})
    for (const auto& e : fs::directory_iterator(fs::path(WARPTLM_TEST_DATA) / "ptx" / sub))
      if (e.path().extension() == ".ptx")
        files.push_back(std::string(sub) + "/" + e.path().filename().string());
  std::sort(files.begin(), files.end());
  return files;
}

template <typename T>
HostBuffer buffer(const std::string& name, size_t n, T (*value)(size_t)) {
  HostBuffer b;
  b.name = name;
  b.bytes.resize(n * sizeof(T));
  for (size_t i = 0; i < n; ++i) {
    const T v = value(i);
    std::memcpy(b.bytes.data() + i * sizeof(T), &v, sizeof(T));
  }
  return b;
}
template <typename T>
T zero(size_t) {
  return T(0);
}
uint64_t f32_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

int32_t divergent_input(size_t i) { return static_cast<int32_t>((i * 37 + 11) % 90); }

// The kernels of tests/data/ptx/src by their unmangled names, each with a
// launch that exercises it (grid, block, buffers, scalars).
LaunchSpec launch_for(const std::string& kernel) {
  LaunchSpec l;
  auto arg = [&](uint32_t i) { l.args.push_back(KernelArg::buffer_arg(i)); };
  if (kernel == "divergent") {
    l.grid = {2, 1, 1};
    l.block = {64, 1, 1};
    l.buffers = {buffer<int32_t>("out", 128, zero<int32_t>),
                 buffer<int32_t>("in", 128, divergent_input)};
    arg(0), arg(1);
    l.args.push_back(KernelArg::scalar(Type::S32, 100));
  } else if (kernel == "calls") {
    l.block = {64, 1, 1};
    l.buffers = {buffer<int32_t>("out", 128, zero<int32_t>),
                 buffer<float>("fout", 64, zero<float>)};
    arg(0), arg(1);
    l.args.push_back(KernelArg::scalar(Type::F32, f32_bits(1.5f)));
  } else if (kernel == "float_math") {
    l.block = {64, 1, 1};
    l.buffers = {
        buffer<float>("out", 64, zero<float>),
        buffer<float>("in", 64, [](size_t i) { return (static_cast<float>(i) - 32.0f) * 0.37f; }),
        buffer<double>("dout", 64, zero<double>), buffer<int32_t>("iout", 64, zero<int32_t>)};
    arg(0), arg(1), arg(2), arg(3);
  } else if (kernel == "globals") {
    l.block = {64, 1, 1};
    l.buffers = {buffer<float>("out", 64, zero<float>)};
    arg(0);
  } else if (kernel == "locals") {
    l.block = {64, 1, 1};
    l.buffers = {buffer<float>("out", 64, zero<float>),
                 buffer<int32_t>("idx", 64, [](size_t i) { return int32_t(i * 7 + 3); })};
    arg(0), arg(1);
  } else if (kernel == "histogram") {
    l.block = {64, 1, 1};
    l.shared_bytes = 64 * 4;
    l.buffers = {buffer<uint32_t>("bins", 40, zero<uint32_t>),
                 buffer<int32_t>("data", 200, [](size_t i) { return int32_t(i * i % 97); })};
    arg(0), arg(1);
    l.args.push_back(KernelArg::scalar(Type::S32, 200));
  } else if (kernel == "reduce") {
    l.grid = {2, 1, 1};
    l.block = {256, 1, 1};
    l.buffers = {buffer<float>("out", 1, zero<float>),
                 buffer<float>("in", 512, [](size_t i) { return float(i % 13) * 0.25f; })};
    arg(0), arg(1);
  } else if (kernel == "warp_ops") {
    l.block = {32, 1, 1};
    l.buffers = {buffer<int32_t>("out", 32, zero<int32_t>),
                 buffer<int32_t>("in", 32, [](size_t i) { return int32_t(i % 5) - 2; })};
    arg(0), arg(1);
  } else {
    ADD_FAILURE() << "no launch for kernel '" << kernel << "': add one to launch_for()";
  }
  return l;
}

// _Z9divergentPiPKii -> divergent.
std::string unmangled(const std::string& name) {
  if (name.rfind("_Z", 0) != 0) return name;
  size_t i = 2, len = 0;
  while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i])))
    len = len * 10 + static_cast<size_t>(name[i++] - '0');
  return name.substr(i, len);
}

// divergent's outputs as the CUDA source computes them.
std::vector<int32_t> divergent_reference() {
  std::vector<int32_t> out(128, 0);
  for (int t = 0; t < 128; ++t) {
    if (t >= 100) continue;
    int v = divergent_input(static_cast<size_t>(t));
    int acc = (v & 1) ? v * 3 + 1 : v / 2;
    for (int i = 0; i < v; ++i) {
      if (i % 3 == 0) continue;
      if (acc > 1000) break;
      acc += i;
    }
    int steps = 0;
    while (v != 1 && steps < 64) {
      v = (v & 1) ? 3 * v + 1 : v >> 1;
      ++steps;
    }
    switch (t & 3) {
      case 0:
        acc += 10;
        break;
      case 1:
        acc -= 3;
        break;
      case 2:
        acc *= 2;
        break;
      default:
        acc ^= 0x55;
    }
    out[static_cast<size_t>(t)] = acc + steps;
  }
  return out;
}

std::vector<HostBuffer> run(const Module& module, const std::string& entry,
                            const std::string& scheme, unsigned warp_size, RunStats* stats) {
  const Program program = prepare_program(module, scheme);
  LaunchSpec l = launch_for(unmangled(entry));
  ExecConfig config;
  config.reconvergence = scheme;
  config.warp_size = warp_size;
  const RunStats s = run_functional(program, entry, l, config);
  if (stats) *stats = s;
  return l.buffers;
}

// Outputs that record the order in which warps reached an atomic (which
// schemes and timing legitimately change) are left out of comparisons:
// histogram's atomicExch and atomicCAS winners (bins 34 and 35), and in
// timing runs globals' (threads read a counter warp 0 increments) and
// reduce's (float atomics add in arrival order).
std::vector<HostBuffer> order_independent(const std::string& kernel, std::vector<HostBuffer> b,
                                          bool timing) {
  if (kernel == "histogram") std::fill(b[0].bytes.begin() + 34 * 4, b[0].bytes.begin() + 36 * 4, 0);
  if (timing && (kernel == "globals" || kernel == "reduce")) b.clear();
  return b;
}

void expect_same(const std::vector<HostBuffer>& want, const std::vector<HostBuffer>& got,
                 const std::string& what, const std::string& than) {
  ASSERT_EQ(want.size(), got.size());
  for (size_t i = 0; i < want.size(); ++i)
    EXPECT_TRUE(want[i].bytes == got[i].bytes)
        << what << ": buffer '" << want[i].name << "' differs from " << than;
}

class CorpusRun : public ::testing::TestWithParam<std::string> {};

TEST_P(CorpusRun, EverySchemeMatchesIpdomBitForBitAtEveryWarpSize) {
  const Module module = parse_ptx_file(std::string(WARPTLM_TEST_DATA) + "/ptx/" + GetParam());
  for (const Function& f : module.functions) {
    if (!f.is_entry) continue;
    const std::string kernel = unmangled(f.name);
    for (unsigned warp_size : {8u, 16u, 32u, 64u}) {
      if (kernel == "warp_ops" && warp_size != 32) continue;  // full-mask shuffles of 32 lanes
      const std::vector<HostBuffer> want =
          order_independent(kernel, run(module, f.name, "ipdom", warp_size, nullptr), false);
      if (kernel == "divergent") {
        std::vector<int32_t> out(128);
        std::memcpy(out.data(), want[0].bytes.data(), 128 * 4);
        EXPECT_EQ(out, divergent_reference()) << "warp size " << warp_size;
      }
      for (const std::string& scheme : reconvergence_names()) {
        if (scheme == "ipdom") continue;
        const std::string what =
            kernel + " under " + scheme + ", warp size " + std::to_string(warp_size);
        try {
          RunStats stats;
          expect_same(
              want,
              order_independent(kernel, run(module, f.name, scheme, warp_size, &stats), false),
              what, "ipdom's");
          if (reconvergence_program_form(scheme) == ProgramForm::ExecMask) {
            EXPECT_GT(stats.mask_instructions, 0u) << what;
          }
        } catch (const std::exception& e) {
          ADD_FAILURE() << what << ": " << e.what();
        }
      }
    }
  }
}

TEST_P(CorpusRun, ExecMaskTimingRunMatchesItsFunctionalRun) {
  const Module module = parse_ptx_file(std::string(WARPTLM_TEST_DATA) + "/ptx/" + GetParam());
  const Program program = prepare_program(module, "exec_mask");
  for (const Function& f : module.functions) {
    if (!f.is_entry) continue;
    const std::string kernel = unmangled(f.name);
    warptlm::testing::in_child_process([&] {  // one SystemC simulation per process
      PlatformConfig config = preset("small");
      config.reconvergence = "exec_mask";
      if (kernel == "warp_ops") config.warp_size = 32;
      LaunchSpec functional = launch_for(kernel), timing = functional;
      const RunStats fstats = run_functional(program, f.name, functional, config.exec_config());
      RunStats tstats;
      run_timing(program, f.name, timing, config, &tstats);
      EXPECT_EQ(tstats.warp_instructions, fstats.warp_instructions) << kernel;
      EXPECT_EQ(tstats.mask_instructions, fstats.mask_instructions) << kernel;
      expect_same(order_independent(kernel, functional.buffers, true),
                  order_independent(kernel, timing.buffers, true), kernel + " in timing mode",
                  "the functional run's");
    });
  }
}

INSTANTIATE_TEST_SUITE_P(Files, CorpusRun, ::testing::ValuesIn(corpus_files()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string n = info.param;
                           for (char& c : n)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

}  // namespace
}  // namespace warptlm
