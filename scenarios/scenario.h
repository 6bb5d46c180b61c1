// A scenario: a real CUDA kernel (its .cu, the PTX generated from it), launch
// geometry as a function of a size, a seeded input generator and a host
// reference that checks the outputs.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "exec/launch.h"

namespace warptlm::scenarios {

enum class Divergence { None, Programmatic, Data, LoopTrip, Unstructured };
const char* divergence_name(Divergence d);

struct CheckResult {
  bool passed = false;
  std::string message;  // what differed (first mismatch), or a one-line summary
};

struct Size {
  std::string name;  // "test" or "study"
  uint64_t n = 0;    // the scenario's size parameter
};

struct Scenario {
  std::string name;     // "reduction"
  std::string title;    // one line
  std::string mirrors;  // the paper benchmark it mirrors, e.g. "REDUCT (SLP Table 1)"
  std::vector<Divergence> divergence;
  std::string source_dir;         // folder under scenarios/ holding kernel.cu and kernel.ptx
  std::string entry;              // kernel entry name in the PTX
  std::vector<Size> sizes;        // at least "test" and "study"
  uint64_t min_n = 1, max_n = 1;  // allowed range of the size parameter
  uint64_t n_multiple = 1;        // n must also be a multiple of this (e.g. the block size)
  // Builds the launch for size parameter n with inputs drawn from `seed`.
  std::function<LaunchSpec(uint64_t n, uint64_t seed)> make_launch;
  // Compares the buffers after the run (`out`) with the host reference computed
  // from the inputs (`in`, the launch as make_launch built it).
  std::function<CheckResult(const LaunchSpec& in, const LaunchSpec& out)> check;
  // The launch as a correct run leaves it: `in` with its output buffers filled
  // by the host reference. Lets tests corrupt a known-good result to show that
  // check() is real, and tools show what was expected.
  std::function<LaunchSpec(const LaunchSpec& in)> expected;
  // Reconvergence schemes under which the kernel legitimately never finishes
  // (threads of one warp waiting on each other forever): a run must end in the
  // executor's runaway-kernel fault instead, never hang.
  std::vector<std::string> livelocks_under;
};

// The PTX text of a scenario, compiled into the library.
const std::string& scenario_ptx(const Scenario& s);

const std::vector<Scenario>& all();
// Throws std::invalid_argument listing the known names when `name` is unknown.
const Scenario& find(const std::string& name);
// Resolves "test"/"study" or a number; throws std::invalid_argument naming the
// allowed sizes / range.
uint64_t resolve_size(const Scenario& s, const std::string& size);

}  // namespace warptlm::scenarios
