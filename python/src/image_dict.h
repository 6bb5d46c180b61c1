// A texture or surface description as the Python package passes it: a dict
// of names (python/warptlm/textures.py), to and from ImageDesc.
#pragma once

#include <pybind11/pybind11.h>

#include "texture/image_desc.h"

namespace warptlm {

// {"kind": "texture"|"surface", "dims", "width", "height", "depth",
//  "type": "u8".."f32", "channels", "address": [3 modes], "filter",
//  "read", "normalized_coords", "border": [4 floats]}
pybind11::dict image_desc_to_dict(const ImageDesc& d);
// std::invalid_argument for a name that is not one of its field's.
ImageDesc image_desc_from_dict(const pybind11::dict& d);

}  // namespace warptlm
