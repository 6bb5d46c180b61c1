// Hexadecimal numbers in messages, one spelling for every component.
#pragma once

#include <cstdint>
#include <string>

namespace warptlm {

// "0x1f": an address, lane mask or handle as messages write it (lowercase, no
// padding).
std::string hex_string(uint64_t v);

}  // namespace warptlm
