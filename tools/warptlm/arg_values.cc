#include "arg_values.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace warptlm::cli {

namespace {

uint64_t parse_uint(const std::string& flag, const std::string& text, uint64_t max) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    throw UsageError(flag + ": expected a non-negative integer, got '" + text + "'");
  errno = 0;
  unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
  if (errno == ERANGE || v > max)
    throw UsageError(flag + ": " + text + " is out of range (at most " + std::to_string(max) + ")");
  return v;
}

}  // namespace

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
  // Any value representable in the width, signed or not, as C's conversions
  // and the Python API allow: i32:4294967295 and u32:-1 are the same bits.
  const bool negative = !value.empty() && value[0] == '-';
  const unsigned long long hi = bits == 64 ? ~0ull : (1ull << bits) - 1;
  const long long lo = bits == 64 ? std::numeric_limits<long long>::min() : -(1ll << (bits - 1));
  uint64_t u = 0;
  bool ok = !value.empty();
  if (negative) {
    long long v = std::strtoll(s, &end, 0);
    ok = ok && !*end && errno != ERANGE && v >= lo;
    u = static_cast<uint64_t>(v);
  } else {
    unsigned long long v = std::strtoull(s, &end, 0);
    ok = ok && !*end && errno != ERANGE && v <= hi;
    u = v;
  }
  if (!ok)
    throw UsageError("--arg '" + text + "': '" + value + "' is not a " + std::to_string(bits) +
                     "-bit integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  if (bits < 64) u &= (1ull << bits) - 1;
  return KernelArg::scalar(type, u);
}

}  // namespace warptlm::cli
