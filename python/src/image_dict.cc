#include "image_dict.h"

#include <pybind11/stl.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace py = pybind11;

namespace warptlm {
namespace {

// An enumerator by its name (`named`: image_desc.h's texel_type_named and kin).
template <class E>
E enum_named(const char* field, const std::string& value, bool (*named)(const std::string&, E*)) {
  E out{};
  if (!named(value, &out))
    throw std::invalid_argument(std::string(field) + ": '" + value + "' is not a " + field +
                                " name");
  return out;
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
  ImageDesc desc;
  desc.kind = d["kind"].cast<std::string>() == "surface" ? ImageDesc::Kind::Surface
                                                         : ImageDesc::Kind::Texture;
  desc.dims = d["dims"].cast<unsigned>();
  desc.width = d["width"].cast<uint32_t>();
  desc.height = d["height"].cast<uint32_t>();
  desc.depth = d["depth"].cast<uint32_t>();
  desc.type = enum_named("type", d["type"].cast<std::string>(), texel_type_named);
  desc.channels = d["channels"].cast<unsigned>();
  const auto modes = d["address"].cast<std::vector<std::string>>();
  for (size_t i = 0; i < 3 && i < modes.size(); ++i)
    desc.address[i] = enum_named("address", modes[i], address_mode_named);
  desc.filter = enum_named("filter", d["filter"].cast<std::string>(), filter_mode_named);
  desc.read = enum_named("read", d["read"].cast<std::string>(), read_mode_named);
  desc.normalized_coords = d["normalized_coords"].cast<bool>();
  const auto border = d["border"].cast<std::vector<float>>();
  for (size_t i = 0; i < 4 && i < border.size(); ++i) desc.border[i] = border[i];
  return desc;
}

}  // namespace warptlm
