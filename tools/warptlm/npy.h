// Reading and writing NumPy .npy files (format versions 1-3, little-endian,
// C order), for array arguments of `warptlm exec`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frontend/ir.h"

namespace warptlm::cli {

struct NpyArray {
  std::string path;
  std::string descr;          // e.g. "<f4"
  Type element = Type::None;  // PTX type matching descr
  std::vector<uint64_t> shape;
  std::string header;  // the raw bytes before the data, kept for write-back
  std::vector<uint8_t> data;
};

// Throws std::runtime_error naming the file and what is wrong.
NpyArray read_npy(const std::string& path);
// Writes `array` back with its original header (same dtype and shape).
void write_npy(const NpyArray& array);

}  // namespace warptlm::cli
