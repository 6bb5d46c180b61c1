// The CUDA runtime's device printf as warptlm carries it out: vprintf(format,
// args) of one lane, the format string read from device memory and the
// arguments from the buffer nvcc and clang pack (each argument at the next
// offset aligned to its size: int and char as 4 bytes, long long, double and
// pointers as 8). docs/printf.md lists what is supported.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace warptlm {

// Reads `size` bytes at generic address `addr` (throws MemoryFault).
using DeviceRead = std::function<void(uint64_t addr, void* dst, unsigned size)>;

struct DevicePrintf {
  std::string text;
  int32_t arguments = 0;  // vprintf's return value: the arguments the format consumed
};

// The longest string (format or %s argument) read, in bytes: a string
// without a terminator within it is cut there, marked "...".
constexpr size_t kMaxPrintfString = 4096;

DevicePrintf format_device_printf(const DeviceRead& read, uint64_t format, uint64_t args);

// A launch keeps at most this much printf text, CUDA's default printf FIFO
// (cudaLimitPrintfFifoSize, 1 MiB); what comes after is dropped, as there.
constexpr size_t kMaxPrintfOutput = size_t(1) << 20;  // bytes

// Appends `text` to a launch's `console`, up to kMaxPrintfOutput bytes; the
// first text dropped leaves a line saying so.
void append_console(std::string& console, const std::string& text);

// The NUL-terminated string at `addr` (at most kMaxPrintfString bytes).
std::string read_device_string(const DeviceRead& read, uint64_t addr);

}  // namespace warptlm
