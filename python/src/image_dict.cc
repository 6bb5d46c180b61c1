#include "image_dict.h"

#include <pybind11/stl.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace py = pybind11;

namespace warptlm {
namespace {

// An enumerator by its name, names in the enum's order.
template <class E, size_t N>
E enum_named(const char* field, const std::string& value, const char* const (&names)[N]) {
  for (size_t i = 0; i < N; ++i)
    if (value == names[i]) return static_cast<E>(i);
  std::string all;
  for (const char* n : names) all += (all.empty() ? "" : ", ") + std::string(n);
  throw std::invalid_argument(std::string(field) + ": '" + value + "' is not one of " + all);
}

}  // namespace

py::dict image_desc_to_dict(const ImageDesc& d) {
  py::dict out;
  out["kind"] = d.kind == ImageDesc::Kind::Surface ? "surface" : "texture";
  out["dims"] = d.dims;
  out["width"] = d.width;
  out["height"] = d.height;
  out["depth"] = d.depth;
  out["type"] = texel_type_name(d.type);
  out["channels"] = d.channels;
  py::list modes;
  for (AddressMode m : d.address) modes.append(address_mode_name(m));
  out["address"] = modes;
  out["filter"] = filter_mode_name(d.filter);
  out["read"] = read_mode_name(d.read);
  out["normalized_coords"] = d.normalized_coords;
  py::list border;
  for (float b : d.border) border.append(b);
  out["border"] = border;
  return out;
}

ImageDesc image_desc_from_dict(const py::dict& d) {
  static const char* const kTypes[] = {"u8", "u16", "u32", "s8", "s16", "s32", "f16", "f32"};
  static const char* const kModes[] = {"wrap", "clamp", "mirror", "border"};
  static const char* const kFilters[] = {"point", "linear"};
  static const char* const kReads[] = {"element_type", "normalized_float"};
  ImageDesc desc;
  desc.kind = d["kind"].cast<std::string>() == "surface" ? ImageDesc::Kind::Surface
                                                         : ImageDesc::Kind::Texture;
  desc.dims = d["dims"].cast<unsigned>();
  desc.width = d["width"].cast<uint32_t>();
  desc.height = d["height"].cast<uint32_t>();
  desc.depth = d["depth"].cast<uint32_t>();
  desc.type = enum_named<TexelType>("type", d["type"].cast<std::string>(), kTypes);
  desc.channels = d["channels"].cast<unsigned>();
  const auto modes = d["address"].cast<std::vector<std::string>>();
  for (size_t i = 0; i < 3 && i < modes.size(); ++i)
    desc.address[i] = enum_named<AddressMode>("address", modes[i], kModes);
  desc.filter = enum_named<FilterMode>("filter", d["filter"].cast<std::string>(), kFilters);
  desc.read = enum_named<ReadMode>("read", d["read"].cast<std::string>(), kReads);
  desc.normalized_coords = d["normalized_coords"].cast<bool>();
  const auto border = d["border"].cast<std::vector<float>>();
  for (size_t i = 0; i < 4 && i < border.size(); ++i) desc.border[i] = border[i];
  return desc;
}

}  // namespace warptlm
