#include "exec/device_printf.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>

namespace warptlm {

void append_console(std::string& console, const std::string& text) {
  static const std::string kDropped =
      "[warptlm: printf output past 1048576 bytes dropped, as CUDA's printf buffer "
      "(cudaLimitPrintfFifoSize) drops it]\n";
  const bool dropping = console.size() >= kDropped.size() &&
                        console.compare(console.size() - kDropped.size(), kDropped.size(),
                                        kDropped) == 0;
  if (dropping) return;  // the buffer overflowed: nothing more is kept
  if (console.size() + text.size() <= kMaxPrintfOutput)
    console += text;
  else
    console += kDropped;
}

std::string read_device_string(const DeviceRead& read, uint64_t addr) {
  std::string s;
  for (size_t i = 0; i < kMaxPrintfString; ++i) {
    char c = 0;
    read(addr + i, &c, 1);
    if (c == 0) return s;
    s.push_back(c);
  }
  return s + "...";
}

namespace {

class ArgumentBuffer {
 public:
  ArgumentBuffer(const DeviceRead& read, uint64_t base) : read_(read), base_(base) {}
  // The next argument of `size` bytes, at the next offset aligned to it.
  uint64_t next(unsigned size) {
    offset_ = (offset_ + size - 1) / size * size;
    uint64_t v = 0;
    read_(base_ + offset_, &v, size);
    offset_ += size;
    ++count_;
    return v;
  }
  int32_t count() const { return count_; }

 private:
  const DeviceRead& read_;
  uint64_t base_, offset_ = 0;
  int32_t count_ = 0;
};

// snprintf into a string.
template <typename T>
std::string format_one(const std::string& spec, T value) {
  char small[256];
  const int n = std::snprintf(small, sizeof small, spec.c_str(), value);
  if (n < 0) return spec;
  if (static_cast<size_t>(n) < sizeof small) return std::string(small, static_cast<size_t>(n));
  std::string big(static_cast<size_t>(n) + 1, '\0');
  std::snprintf(big.data(), big.size(), spec.c_str(), value);
  big.resize(static_cast<size_t>(n));
  return big;
}

}  // namespace

DevicePrintf format_device_printf(const DeviceRead& read, uint64_t format, uint64_t args) {
  const std::string f = read_device_string(read, format);
  ArgumentBuffer buffer(read, args);
  DevicePrintf out;
  size_t i = 0;
  while (i < f.size()) {
    if (f[i] != '%') {
      out.text.push_back(f[i++]);
      continue;
    }
    const size_t start = i++;
    if (i < f.size() && f[i] == '%') {
      out.text.push_back('%');
      ++i;
      continue;
    }
    // %[flags][width][.precision][length]conversion; '*' takes an int.
    std::string spec = "%";
    while (i < f.size() && std::strchr("-+ #0", f[i])) spec.push_back(f[i++]);
    auto number = [&]() {
      if (i < f.size() && f[i] == '*') {
        ++i;
        spec += std::to_string(static_cast<int32_t>(buffer.next(4)));
        return;
      }
      while (i < f.size() && f[i] >= '0' && f[i] <= '9') spec.push_back(f[i++]);
    };
    number();
    if (i < f.size() && f[i] == '.') {
      spec.push_back(f[i++]);
      number();
    }
    unsigned longs = 0;  // h and hh narrow after promotion to int; l, ll, j, z, t are 8 bytes
    std::string narrow;
    while (i < f.size() && std::strchr("hlLjzt", f[i])) {
      if (f[i] == 'h')
        narrow.push_back('h');
      else
        ++longs;
      ++i;
    }
    if (i >= f.size()) {  // a format ending inside a conversion: printed as written
      out.text += f.substr(start);
      break;
    }
    const char conv = f[i++];
    switch (conv) {
      case 'd':
      case 'i':
        out.text += longs ? format_one(spec + "lld", static_cast<long long>(buffer.next(8)))
                          : format_one(spec + narrow + conv,
                                       static_cast<int>(static_cast<int32_t>(buffer.next(4))));
        break;
      case 'u':
      case 'x':
      case 'X':
      case 'o':
        out.text +=
            longs ? format_one(spec + "ll" + conv, static_cast<unsigned long long>(buffer.next(8)))
                  : format_one(spec + narrow + conv,
                               static_cast<unsigned>(static_cast<uint32_t>(buffer.next(4))));
        break;
      case 'c':
        out.text += format_one(spec + "c", static_cast<int>(static_cast<int32_t>(buffer.next(4))));
        break;
      case 'f':
      case 'F':
      case 'e':
      case 'E':
      case 'g':
      case 'G':
      case 'a':
      case 'A': {
        const uint64_t bits = buffer.next(8);  // float arguments are promoted to double
        double d;
        std::memcpy(&d, &bits, 8);
        out.text += format_one(spec + conv, d);
        break;
      }
      case 's': {
        const uint64_t p = buffer.next(8);
        out.text += format_one(spec + "s", p ? read_device_string(read, p).c_str() : "(null)");
        break;
      }
      case 'p':
        out.text += format_one("0x%" PRIx64, buffer.next(8));
        break;
      default:  // not a conversion the runtime knows: printed as written
        out.text += f.substr(start, i - start);
        break;
    }
  }
  out.arguments = buffer.count();
  return out;
}

}  // namespace warptlm
