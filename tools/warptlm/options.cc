#include "options.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace warptlm::cli {

Args::Args(int argc, char** argv, int first) {
  static const char* const kSwitches[] = {"--help", "--markers"};
  for (int i = first; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--", 0) == 0) {
      bool is_switch = false;
      for (const char* s : kSwitches) is_switch |= (a == s);
      if (is_switch) {
        switches_.push_back(a);
        continue;
      }
      auto eq = a.find('=');
      if (eq != std::string::npos) {
        flags_.emplace_back(a.substr(0, eq), a.substr(eq + 1));
      } else {
        if (i + 1 >= argc) throw UsageError(a + " needs a value");
        flags_.emplace_back(a, argv[++i]);
      }
    } else {
      positionals_.push_back(a);
    }
  }
  taken_.assign(flags_.size(), false);
}

bool Args::take(const std::string& name, std::string* value) {
  bool found = false;
  for (size_t i = 0; i < flags_.size(); ++i) {
    if (flags_[i].first != name) continue;
    *value = flags_[i].second;
    taken_[i] = true;
    found = true;
  }
  return found;
}

std::vector<std::string> Args::take_all(const std::string& name) {
  std::vector<std::string> values;
  for (size_t i = 0; i < flags_.size(); ++i) {
    if (flags_[i].first != name) continue;
    values.push_back(flags_[i].second);
    taken_[i] = true;
  }
  return values;
}

bool Args::take_flag(const std::string& name) {
  for (auto it = switches_.begin(); it != switches_.end(); ++it) {
    if (*it != name) continue;
    switches_.erase(it);
    return true;
  }
  return false;
}

void Args::finish() const {
  for (size_t i = 0; i < flags_.size(); ++i)
    if (!taken_[i]) throw UsageError("unknown option " + flags_[i].first);
  if (!switches_.empty()) throw UsageError("unknown option " + switches_.front());
}

uint64_t parse_uint(const std::string& flag, const std::string& text, uint64_t max) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    throw UsageError(flag + ": expected a non-negative integer, got '" + text + "'");
  errno = 0;
  unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
  if (errno == ERANGE || v > max)
    throw UsageError(flag + ": " + text + " is out of range (at most " + std::to_string(max) + ")");
  return v;
}

Dim3 parse_dim3(const std::string& flag, const std::string& text) {
  uint32_t v[3] = {1, 1, 1};
  size_t start = 0;
  for (int i = 0; i < 3; ++i) {
    size_t comma = text.find(',', start);
    std::string part =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    v[i] = static_cast<uint32_t>(parse_uint(flag, part, 0xffffffffu));
    if (v[i] == 0) throw UsageError(flag + ": dimensions must be positive, got '" + text + "'");
    if (comma == std::string::npos) break;
    if (i == 2) throw UsageError(flag + ": at most three dimensions X[,Y[,Z]], got '" + text + "'");
    start = comma + 1;
  }
  return Dim3{v[0], v[1], v[2]};
}

KernelArg parse_scalar(const std::string& text) {
  auto colon = text.find(':');
  if (colon == std::string::npos)
    throw UsageError("--arg '" + text +
                     "': expected FILE.npy or TYPE:VALUE (e.g. i32:256, f32:1.5)");
  std::string tn = text.substr(0, colon), value = text.substr(colon + 1);
  static const struct {
    const char* name;
    Type type;
  } types[] = {{"i8", Type::S8},   {"i16", Type::S16}, {"i32", Type::S32}, {"i64", Type::S64},
               {"s8", Type::S8},   {"s16", Type::S16}, {"s32", Type::S32}, {"s64", Type::S64},
               {"u8", Type::U8},   {"u16", Type::U16}, {"u32", Type::U32}, {"u64", Type::U64},
               {"f32", Type::F32}, {"f64", Type::F64}};
  Type type = Type::None;
  for (const auto& t : types)
    if (tn == t.name) type = t.type;
  if (type == Type::None)
    throw UsageError("--arg '" + text + "': unknown type '" + tn +
                     "' (i8 i16 i32 i64 u8 u16 u32 u64 f32 f64)");
  const char* s = value.c_str();
  char* end = nullptr;
  errno = 0;
  unsigned bits = type_bits(type);
  if (is_float(type)) {
    double d = std::strtod(s, &end);
    if (value.empty() || *end || errno == ERANGE)
      throw UsageError("--arg '" + text + "': '" + value + "' is not a " + tn + " number");
    if (type == Type::F32) {
      float f = static_cast<float>(d);
      if (std::isinf(f) && !std::isinf(d))
        throw UsageError("--arg '" + text + "': " + value + " overflows f32");
      uint32_t u;
      std::memcpy(&u, &f, 4);
      return KernelArg::scalar(type, u);
    }
    uint64_t u;
    std::memcpy(&u, &d, 8);
    return KernelArg::scalar(type, u);
  }
  if (is_signed(type)) {
    long long v = std::strtoll(s, &end, 0);
    long long lo = bits == 64 ? std::numeric_limits<long long>::min() : -(1ll << (bits - 1));
    long long hi = bits == 64 ? std::numeric_limits<long long>::max() : (1ll << (bits - 1)) - 1;
    if (value.empty() || *end || errno == ERANGE || v < lo || v > hi)
      throw UsageError("--arg '" + text + "': '" + value + "' is not a " + tn + " in [" +
                       std::to_string(lo) + ", " + std::to_string(hi) + "]");
    uint64_t u = static_cast<uint64_t>(v);
    if (bits < 64) u &= (1ull << bits) - 1;
    return KernelArg::scalar(type, u);
  }
  unsigned long long v = std::strtoull(s, &end, 0);
  unsigned long long hi = bits == 64 ? ~0ull : (1ull << bits) - 1;
  if (value.empty() || value[0] == '-' || *end || errno == ERANGE || v > hi)
    throw UsageError("--arg '" + text + "': '" + value + "' is not a " + tn + " in [0, " +
                     std::to_string(hi) + "]");
  return KernelArg::scalar(type, v);
}

}  // namespace warptlm::cli
