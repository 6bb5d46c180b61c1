// The fuzzing harness of the PTX front end and the functional executor: one
// input is a PTX text. Hostile text may only end in a located PtxError, and a
// module that parses may only end, per kernel, in a normal run, a launch
// refusal (std::invalid_argument) or a KernelFault; anything else (another
// exception, a crash, a sanitizer report) is a bug the fuzzer reports.
#pragma once

#include <cstddef>
#include <cstdint>

namespace warptlm::fuzz {

void fuzz_ptx(const uint8_t* data, size_t size);

}  // namespace warptlm::fuzz
