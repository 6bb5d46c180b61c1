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

bool is_image_arg(const std::string& text) {
  return text.rfind("texture:", 0) == 0 || text.rfind("surface:", 0) == 0;
}

ImageOptions parse_image_arg(const std::string& text, std::string* path) {
  ImageOptions o;
  const bool texture = text.rfind("texture:", 0) == 0;
  o.kind = texture ? ImageDesc::Kind::Texture : ImageDesc::Kind::Surface;
  const std::string rest = text.substr(8);  // after "texture:" or "surface:"
  std::vector<std::string> parts;
  for (size_t start = 0;;) {
    const size_t comma = rest.find(',', start);
    parts.push_back(rest.substr(start, comma == std::string::npos ? comma : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  *path = parts[0];
  const std::string where = "--arg '" + text + "'";
  if (path->size() < 5 || path->compare(path->size() - 4, 4, ".npy") != 0)
    throw UsageError(where + ": expected " + (texture ? "texture" : "surface") +
                     ":FILE.npy[,OPTION...], the array's .npy file first");
  auto split = [](const std::string& v) {
    std::vector<std::string> out;
    for (size_t start = 0;;) {
      const size_t slash = v.find('/', start);
      out.push_back(v.substr(start, slash == std::string::npos ? slash : slash - start));
      if (slash == std::string::npos) return out;
      start = slash + 1;
    }
  };
  for (size_t i = 1; i < parts.size(); ++i) {
    const std::string& p = parts[i];
    const size_t eq = p.find('=');
    const std::string key = p.substr(0, eq),
                      value = eq == std::string::npos ? "" : p.substr(eq + 1);
    if (key == "channels" && eq != std::string::npos) {
      o.channels = static_cast<unsigned>(parse_uint(where + " channels", value, 4));
    } else if (texture && key == "normalized" && eq == std::string::npos) {
      o.normalized_coords = true;
    } else if (texture && key == "filter" && eq != std::string::npos) {
      o.filter = value;
    } else if (texture && key == "read" && eq != std::string::npos) {
      o.read = value;
    } else if (texture && key == "address" && eq != std::string::npos) {
      o.address = split(value);
    } else if (texture && key == "border" && eq != std::string::npos) {
      o.border.clear();
      for (const std::string& v : split(value)) {
        char* end = nullptr;
        const double d = std::strtod(v.c_str(), &end);
        if (v.empty() || *end)
          throw UsageError(where + ": border value '" + v + "' is not a number");
        o.border.push_back(d);
      }
    } else {
      throw UsageError(where + ": unknown option '" + p + "' (" +
                       (texture ? "channels=N, filter=point|linear, address=MODE[/MODE[/MODE]], "
                                  "normalized, read=element_type|normalized_float, border=V/V/V/V"
                                : "channels=N") +
                       ")");
    }
  }
  return o;
}

ImageDesc make_image_desc(const ImageOptions& o, const std::vector<uint64_t>& shape,
                          const std::string& element) {
  const bool texture = o.kind == ImageDesc::Kind::Texture;
  const std::string what = texture ? "Texture: " : "Surface: ";
  auto fail = [&](const std::string& why) { throw std::invalid_argument(what + why); };
  auto shape_text = [&] {
    std::string t = "(";
    for (size_t i = 0; i < shape.size(); ++i) t += (i ? ", " : "") + std::to_string(shape[i]);
    return t + (shape.size() == 1 ? ",)" : ")");
  };
  ImageDesc d;
  d.kind = o.kind;
  if (!texel_type_named(element, &d.type))
    fail("'" + element +
         "' elements cannot be texels (use u8, u16, u32, s8, s16, s32, f16 or f32)");
  if (o.channels != 1 && o.channels != 2 && o.channels != 4)
    fail("channels must be 1, 2 or 4, got " + std::to_string(o.channels));
  d.channels = o.channels;
  std::vector<uint64_t> axes = shape;
  if (o.channels > 1) {
    if (axes.empty() || axes.back() != o.channels)
      fail("with " + std::to_string(o.channels) + " channels the array's last axis must be " +
           std::to_string(o.channels) + ", its shape is " + shape_text());
    axes.pop_back();
  }
  if (axes.empty() || axes.size() > 3)
    fail("the image must have 1 to 3 axes besides the channels, the array's shape is " +
         shape_text());
  for (uint64_t n : axes)
    if (n == 0 || n > 0xffffffffu)
      fail("every image axis needs 1 to 2^32-1 texels, the array's shape is " + shape_text());
  d.dims = static_cast<unsigned>(axes.size());
  d.width = static_cast<uint32_t>(axes.back());
  d.height = d.dims > 1 ? static_cast<uint32_t>(axes[axes.size() - 2]) : 1;
  d.depth = d.dims > 2 ? static_cast<uint32_t>(axes[0]) : 1;
  if (texture) {
    if (o.address.empty() || o.address.size() > 3)
      fail("address takes 1 to 3 modes, got " + std::to_string(o.address.size()));
    for (unsigned i = 0; i < 3; ++i) {
      const std::string& m = o.address[std::min<size_t>(i, o.address.size() - 1)];
      if (!address_mode_named(m, &d.address[i]))
        fail("address mode '" + m + "' is not one of wrap, clamp, mirror, border");
    }
    if (!filter_mode_named(o.filter, &d.filter))
      fail("filter '" + o.filter + "' is not one of point, linear");
    if (!read_mode_named(o.read, &d.read))
      fail("read '" + o.read + "' is not one of element_type, normalized_float");
    d.normalized_coords = o.normalized_coords;
    if (o.border.size() != 4) fail("border takes 4 values, got " + std::to_string(o.border.size()));
    for (unsigned i = 0; i < 4; ++i) d.border[i] = static_cast<float>(o.border[i]);
  }
  const std::string problem = image_desc_problem(d);
  if (!problem.empty()) fail(problem);
  return d;
}

}  // namespace warptlm::cli
