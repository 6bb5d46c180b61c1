#include "frontend/ptx_error.h"

#include <utility>

namespace warptlm {

namespace {

std::string format(const std::string& file, uint32_t line, uint32_t col,
                   const std::string& message) {
  return file + ":" + std::to_string(line) + ":" + std::to_string(col) + ": error: " + message;
}

// Messages quote source text (names, tokens), which hostile input makes
// huge or fills with control bytes: one line, bounded, printable.
constexpr size_t kMaxMessageBytes = 1024;

std::string bounded(const std::string& message) {
  std::string out;
  size_t i = 0;
  for (; i < message.size() && out.size() < kMaxMessageBytes; ++i) {
    const unsigned char c = static_cast<unsigned char>(message[i]);
    if (c >= 32 && c != 127) {
      out += static_cast<char>(c);
    } else {
      static const char* hex = "0123456789abcdef";
      out += std::string("\\x") + hex[c >> 4] + hex[c & 15];
    }
  }
  if (i < message.size())
    out += "... [" + std::to_string(message.size() - i) + " more bytes of message cut]";
  return out;
}

}  // namespace

PtxError::PtxError(std::string file, uint32_t line, uint32_t col, std::string message)
    : std::runtime_error(format(file, line, col, bounded(message))),
      file_(std::move(file)),
      line_(line),
      col_(col),
      message_(bounded(message)) {}

}  // namespace warptlm
