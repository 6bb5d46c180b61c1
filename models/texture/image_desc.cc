#include "texture/image_desc.h"

#include <cstring>

namespace warptlm {
namespace {

// "WTX1" and "WSF1", little endian: a word random memory rarely holds.
constexpr uint32_t kTextureMagic = 0x31585457;
constexpr uint32_t kSurfaceMagic = 0x31465357;

template <class T>
void put(ImageDescBytes& b, unsigned at, T v) {
  std::memcpy(b.data() + at, &v, sizeof v);
}
template <class T>
T get(const uint8_t* b, unsigned at) {
  T v;
  std::memcpy(&v, b + at, sizeof v);
  return v;
}

}  // namespace

const char* texel_type_name(TexelType t) {
  static const char* const kNames[] = {"u8", "u16", "u32", "s8", "s16", "s32", "f16", "f32"};
  return t < TexelType::Count_ ? kNames[static_cast<unsigned>(t)] : "?";
}
const char* address_mode_name(AddressMode m) {
  static const char* const kNames[] = {"wrap", "clamp", "mirror", "border"};
  return m < AddressMode::Count_ ? kNames[static_cast<unsigned>(m)] : "?";
}
const char* filter_mode_name(FilterMode m) {
  return m == FilterMode::Point ? "point" : m == FilterMode::Linear ? "linear" : "?";
}
const char* read_mode_name(ReadMode m) {
  return m == ReadMode::ElementType       ? "element_type"
         : m == ReadMode::NormalizedFloat ? "normalized_float"
                                          : "?";
}
namespace {
template <class E>
bool named(const std::string& name, E* out, const char* (*name_of)(E)) {
  for (unsigned i = 0; i < static_cast<unsigned>(E::Count_); ++i)
    if (name == name_of(static_cast<E>(i))) {
      *out = static_cast<E>(i);
      return true;
    }
  return false;
}
}  // namespace

bool texel_type_named(const std::string& name, TexelType* out) {
  return named(name, out, texel_type_name);
}
bool address_mode_named(const std::string& name, AddressMode* out) {
  return named(name, out, address_mode_name);
}
bool filter_mode_named(const std::string& name, FilterMode* out) {
  return named(name, out, filter_mode_name);
}
bool read_mode_named(const std::string& name, ReadMode* out) {
  return named(name, out, read_mode_name);
}

unsigned channel_bytes(TexelType t) {
  switch (t) {
    case TexelType::U8:
    case TexelType::S8:
      return 1;
    case TexelType::U16:
    case TexelType::S16:
    case TexelType::F16:
      return 2;
    default:
      return 4;
  }
}

std::string image_desc_problem(const ImageDesc& d) {
  const bool texture = d.kind == ImageDesc::Kind::Texture;
  if (d.kind != ImageDesc::Kind::Texture && d.kind != ImageDesc::Kind::Surface)
    return "kind: neither a texture nor a surface";
  if (d.dims < 1 || d.dims > 3) return "dims: " + std::to_string(d.dims) + " is not 1, 2 or 3";
  if (d.width == 0 || d.height == 0 || d.depth == 0)
    return "width, height and depth must be at least 1";
  if (d.dims < 2 && d.height != 1) return "height: a 1D image has height 1";
  if (d.dims < 3 && d.depth != 1) return "depth: a 1D or 2D image has depth 1";
  if (d.type >= TexelType::Count_) return "type: not a texel type";
  if (d.channels != 1 && d.channels != 2 && d.channels != 4)
    return "channels: " + std::to_string(d.channels) + " is not 1, 2 or 4";
  const uint64_t row = uint64_t(d.width) * d.texel_bytes();
  if (d.pitch != 0 && d.pitch < row)
    return "pitch: " + std::to_string(d.pitch) + " bytes is less than a row of " +
           std::to_string(d.width) + " texels (" + std::to_string(row) + " bytes)";
  if (d.row_pitch() % channel_bytes(d.type) != 0)
    return "pitch: " + std::to_string(d.row_pitch()) + " is not a multiple of the " +
           std::to_string(channel_bytes(d.type)) + "-byte channel";
  if (d.data % channel_bytes(d.type) != 0) return "data: the texels are not channel-aligned";
  if (d.row_pitch() >> 40 || (uint64_t(d.height) * d.depth) >> 32)
    return "the image is larger than 2^40 bytes per row or 2^32 rows";
  if (!texture) return "";
  for (unsigned i = 0; i < 3; ++i)
    if (d.address[i] >= AddressMode::Count_)
      return "address[" + std::to_string(i) + "]: not an address mode";
  if (d.filter >= FilterMode::Count_) return "filter: not a filter mode";
  if (d.read >= ReadMode::Count_) return "read: not a read mode";
  const unsigned cb = channel_bytes(d.type);
  if (d.read == ReadMode::NormalizedFloat && (is_float_texel(d.type) || cb > 2))
    return std::string("read: normalized_float needs 8- or 16-bit integer texels, not ") +
           texel_type_name(d.type);
  if (d.filter == FilterMode::Linear && !is_float_texel(d.type) &&
      d.read != ReadMode::NormalizedFloat)
    return std::string("filter: linear filtering returns floats; ") + texel_type_name(d.type) +
           " texels need read mode normalized_float";
  return "";
}

ImageDescBytes encode_image_desc(const ImageDesc& d) {
  ImageDescBytes b{};
  const bool texture = d.kind == ImageDesc::Kind::Texture;
  put<uint32_t>(b, 0, texture ? kTextureMagic : kSurfaceMagic);
  b[4] = static_cast<uint8_t>(d.dims);
  b[5] = static_cast<uint8_t>(d.channels);
  b[6] = static_cast<uint8_t>(d.type);
  b[7] = d.normalized_coords ? 1 : 0;
  for (unsigned i = 0; i < 3; ++i) b[8 + i] = static_cast<uint8_t>(d.address[i]);
  b[11] = static_cast<uint8_t>(d.filter);
  b[12] = static_cast<uint8_t>(d.read);
  put<uint32_t>(b, 16, d.width);
  put<uint32_t>(b, 20, d.height);
  put<uint32_t>(b, 24, d.depth);
  put<uint64_t>(b, 32, d.data);
  put<uint64_t>(b, 40, d.row_pitch());
  for (unsigned i = 0; i < 4; ++i) put<float>(b, 48 + 4 * i, d.border[i]);
  return b;
}

bool decode_image_desc(const uint8_t* b, ImageDesc* out, std::string* why) {
  const uint32_t magic = get<uint32_t>(b, 0);
  if (magic != kTextureMagic && magic != kSurfaceMagic) {
    *why = "it holds no texture or surface descriptor (no descriptor tag in its first word)";
    return false;
  }
  for (unsigned i : {13u, 14u, 15u, 28u, 29u, 30u, 31u})
    if (b[i] != 0) {
      *why = "its descriptor is corrupt (reserved byte " + std::to_string(i) + " is not 0)";
      return false;
    }
  ImageDesc d;
  d.kind = magic == kTextureMagic ? ImageDesc::Kind::Texture : ImageDesc::Kind::Surface;
  d.dims = b[4];
  d.channels = b[5];
  d.type = static_cast<TexelType>(b[6]);
  d.normalized_coords = b[7] & 1;
  for (unsigned i = 0; i < 3; ++i) d.address[i] = static_cast<AddressMode>(b[8 + i]);
  d.filter = static_cast<FilterMode>(b[11]);
  d.read = static_cast<ReadMode>(b[12]);
  d.width = get<uint32_t>(b, 16);
  d.height = get<uint32_t>(b, 20);
  d.depth = get<uint32_t>(b, 24);
  d.data = get<uint64_t>(b, 32);
  d.pitch = get<uint64_t>(b, 40);
  for (unsigned i = 0; i < 4; ++i) d.border[i] = get<float>(b, 48 + 4 * i);
  if (b[7] > 1) {
    *why = "its descriptor is corrupt (flags " + std::to_string(b[7]) + ")";
    return false;
  }
  const std::string problem = image_desc_problem(d);
  if (!problem.empty()) {
    *why = "its descriptor is invalid: " + problem;
    return false;
  }
  *out = d;
  return true;
}

}  // namespace warptlm
