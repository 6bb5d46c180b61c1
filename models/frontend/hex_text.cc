#include "frontend/hex_text.h"

#include <cstdio>

namespace warptlm {

std::string hex_string(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace warptlm
