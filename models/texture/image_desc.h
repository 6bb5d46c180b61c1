// Texture and surface objects: what one describes (the texels' layout and
// format, and for a texture how it is sampled), and the 64-byte descriptor a
// host writes in device memory for it. A kernel's texture or surface handle
// (cudaTextureObject_t, cudaSurfaceObject_t) is the device address of such a
// descriptor; docs/textures.md gives the byte layout.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace warptlm {

// One channel's type (cudaChannelFormatDesc: kind and size).
enum class TexelType : uint8_t { U8, U16, U32, S8, S16, S32, F16, F32, Count_ };
// The values and order of cudaTextureAddressMode.
enum class AddressMode : uint8_t { Wrap, Clamp, Mirror, Border, Count_ };
enum class FilterMode : uint8_t { Point, Linear, Count_ };
// cudaReadModeElementType / cudaReadModeNormalizedFloat.
enum class ReadMode : uint8_t { ElementType, NormalizedFloat, Count_ };

const char* texel_type_name(TexelType t);  // "u8", ..., "f32"
const char* address_mode_name(AddressMode m);
const char* filter_mode_name(FilterMode m);
const char* read_mode_name(ReadMode m);
// The inverses of the names above: false when `name` names none.
bool texel_type_named(const std::string& name, TexelType* out);
bool address_mode_named(const std::string& name, AddressMode* out);
bool filter_mode_named(const std::string& name, FilterMode* out);
bool read_mode_named(const std::string& name, ReadMode* out);
unsigned channel_bytes(TexelType t);
inline bool is_float_texel(TexelType t) { return t == TexelType::F16 || t == TexelType::F32; }
inline bool is_signed_texel(TexelType t) {
  return t == TexelType::S8 || t == TexelType::S16 || t == TexelType::S32;
}

struct ImageDesc {
  enum class Kind : uint8_t { Texture, Surface };
  Kind kind = Kind::Texture;
  // The texels: width x height x depth of `channels` channels of `type`,
  // texel (x, y, z) at data + z * height * pitch + y * pitch + x * texel_bytes().
  unsigned dims = 1;  // 1, 2 or 3
  uint32_t width = 1, height = 1, depth = 1;
  uint64_t pitch = 0;  // bytes from one row to the next; 0: width * texel_bytes()
  TexelType type = TexelType::F32;
  unsigned channels = 1;  // 1, 2 or 4
  uint64_t data = 0;      // device address of texel (0, 0, 0)
  // Sampling (textures only; a surface's are left at their defaults).
  AddressMode address[3] = {AddressMode::Clamp, AddressMode::Clamp, AddressMode::Clamp};
  FilterMode filter = FilterMode::Point;
  ReadMode read = ReadMode::ElementType;
  bool normalized_coords = false;
  float border[4] = {0, 0, 0, 0};  // the value outside a Border texture (per channel)

  unsigned texel_bytes() const { return channel_bytes(type) * channels; }
  uint64_t row_pitch() const { return pitch ? pitch : uint64_t(width) * texel_bytes(); }
  // Bytes from data to the end of the last texel.
  uint64_t extent() const {
    return (uint64_t(depth) * height - 1) * row_pitch() + uint64_t(width) * texel_bytes();
  }
  uint64_t texel_address(int64_t x, int64_t y, int64_t z) const {
    return data + (uint64_t(z) * height + uint64_t(y)) * row_pitch() + uint64_t(x) * texel_bytes();
  }
};

// What is wrong with `d` ("" when nothing): the field and the rule. The
// descriptor's data address is not checked (a fetch outside memory faults).
std::string image_desc_problem(const ImageDesc& d);

constexpr unsigned kImageDescBytes = 64;
using ImageDescBytes = std::array<uint8_t, kImageDescBytes>;
ImageDescBytes encode_image_desc(const ImageDesc& d);
// Decodes and validates a descriptor read from device memory; false with
// *why saying what is wrong (not a descriptor, or a bad field).
bool decode_image_desc(const uint8_t* bytes, ImageDesc* out, std::string* why);

}  // namespace warptlm
