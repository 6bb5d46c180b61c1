// The one exception the PTX front end throws: a diagnostic pinned to a source
// position, formatted like a compiler error so editors can jump to it.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace warptlm {

class PtxError : public std::runtime_error {
 public:
  // what() is "FILE:LINE:COL: error: MESSAGE".
  PtxError(std::string file, uint32_t line, uint32_t col, std::string message);

  const std::string& file() const { return file_; }
  uint32_t line() const { return line_; }
  uint32_t col() const { return col_; }
  const std::string& message() const { return message_; }

 private:
  std::string file_;
  uint32_t line_;
  uint32_t col_;
  std::string message_;
};

}  // namespace warptlm
