// libFuzzer's entry point (scripts/fuzz.sh builds it with clang
// -fsanitize=fuzzer); in the ordinary build it is an unused function.
#include "ptx_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  warptlm::fuzz::fuzz_ptx(data, size);
  return 0;
}
