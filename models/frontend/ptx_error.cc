#include "frontend/ptx_error.h"

#include <utility>

namespace warptlm {

namespace {
std::string format(const std::string& file, uint32_t line, uint32_t col,
                   const std::string& message) {
  return file + ":" + std::to_string(line) + ":" + std::to_string(col) + ": error: " + message;
}
}  // namespace

PtxError::PtxError(std::string file, uint32_t line, uint32_t col, std::string message)
    : std::runtime_error(format(file, line, col, message)),
      file_(std::move(file)),
      line_(line),
      col_(col),
      message_(std::move(message)) {}

}  // namespace warptlm
