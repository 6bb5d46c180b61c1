// How a texture fetch turns coordinates into texels and texels into a value,
// following the CUDA Programming Guide's "Texture Fetching" appendix: the
// address modes, nearest-point sampling, and linear filtering with weights in
// 9-bit fixed point (8 fractional bits). The semantics (texture_ops.cc) read
// the texels this plans; docs/textures.md states every choice made where
// the guide and the PTX ISA are silent.
#pragma once

#include <cstdint>

#include "texture/image_desc.h"

namespace warptlm {

// One texel a fetch reads, and its weight in the result. A border tap reads
// no memory: it is the texture's border colour.
struct TexelTap {
  int64_t x = 0, y = 0, z = 0;
  double weight = 1;
  bool border = false;
};
struct SamplePlan {
  TexelTap taps[8];
  unsigned count = 0;
};

// tex with .f32 coordinates c[0..dims) (normalised or not, as the texture
// says) and integer texel offsets off[0..dims): one tap (point) or 2^dims
// taps (linear).
SamplePlan plan_fetch(const ImageDesc& d, const float* c, const int32_t* off);
// tex with .s32 coordinates: texel indices, always one tap.
SamplePlan plan_fetch_integer(const ImageDesc& d, const int32_t* c, const int32_t* off);
// tld4 (2D): the four texels of the bilinear footprint of c, weight 1 each,
// in the PTX order (counter-clockwise from the lower left): (i, j+1),
// (i+1, j+1), (i+1, j), (i, j).
SamplePlan plan_gather(const ImageDesc& d, const float* c, const int32_t* off);

// The border colour as a fetch returns it: its first `channels` values, the
// channels the texture lacks as (0, 0, 0, 1), as for a texel.
void border_channels(const ImageDesc& d, double out[4]);

}  // namespace warptlm
