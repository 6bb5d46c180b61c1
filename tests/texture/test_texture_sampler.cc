// The texture unit's parts alone: the descriptor's encoding and its checks,
// and the sampler's texel choice and weights on hand-computed cases.
#include <gtest/gtest.h>

#include <cstring>
#include <limits>

#include "texture/image_desc.h"
#include "texture/texture_sampler.h"

namespace warptlm {
namespace {

ImageDesc desc2d(uint32_t w, uint32_t h) {
  ImageDesc d;
  d.dims = 2;
  d.width = w;
  d.height = h;
  d.data = 0x10000;
  return d;
}

TEST(ImageDesc, EncodesAndDecodesEveryField) {
  ImageDesc d = desc2d(300, 7);
  d.type = TexelType::U16;
  d.channels = 4;
  d.pitch = 2432;
  d.address[0] = AddressMode::Mirror;
  d.address[1] = AddressMode::Border;
  d.filter = FilterMode::Linear;
  d.read = ReadMode::NormalizedFloat;
  d.normalized_coords = true;
  d.border[2] = 0.25f;
  const ImageDescBytes b = encode_image_desc(d);
  ImageDesc back;
  std::string why;
  ASSERT_TRUE(decode_image_desc(b.data(), &back, &why)) << why;
  EXPECT_EQ(back.width, 300u);
  EXPECT_EQ(back.height, 7u);
  EXPECT_EQ(back.row_pitch(), 2432u);
  EXPECT_EQ(back.type, TexelType::U16);
  EXPECT_EQ(back.channels, 4u);
  EXPECT_EQ(back.address[0], AddressMode::Mirror);
  EXPECT_EQ(back.address[1], AddressMode::Border);
  EXPECT_EQ(back.filter, FilterMode::Linear);
  EXPECT_EQ(back.read, ReadMode::NormalizedFloat);
  EXPECT_TRUE(back.normalized_coords);
  EXPECT_EQ(back.border[2], 0.25f);
  EXPECT_EQ(back.data, 0x10000u);
  EXPECT_EQ(back.texel_address(3, 2, 0), 0x10000u + 2 * 2432 + 3 * 8);
}

TEST(ImageDesc, DecodingRefusesWhatIsNotADescriptor) {
  std::string why;
  ImageDesc out;
  uint8_t zeros[kImageDescBytes] = {};
  EXPECT_FALSE(decode_image_desc(zeros, &out, &why));
  EXPECT_NE(why.find("holds no texture or surface descriptor"), std::string::npos) << why;
  ImageDescBytes b = encode_image_desc(desc2d(4, 4));
  b[14] = 1;
  EXPECT_FALSE(decode_image_desc(b.data(), &out, &why));
  EXPECT_NE(why.find("reserved byte 14"), std::string::npos) << why;
  b = encode_image_desc(desc2d(4, 4));
  b[5] = 3;  // three channels
  EXPECT_FALSE(decode_image_desc(b.data(), &out, &why));
  EXPECT_NE(why.find("channels: 3 is not 1, 2 or 4"), std::string::npos) << why;
}

TEST(ImageDesc, ProblemsNameTheField) {
  ImageDesc d = desc2d(8, 8);
  d.pitch = 16;
  EXPECT_EQ(image_desc_problem(d), "pitch: 16 bytes is less than a row of 8 texels (32 bytes)");
  d = desc2d(8, 8);
  d.read = ReadMode::NormalizedFloat;
  EXPECT_EQ(image_desc_problem(d),
            "read: normalized_float needs 8- or 16-bit integer texels, not f32");
  d = desc2d(8, 8);
  d.dims = 1;
  EXPECT_EQ(image_desc_problem(d), "height: a 1D image has height 1");
  d = desc2d(8, 8);
  d.type = TexelType::U8;
  d.filter = FilterMode::Linear;
  EXPECT_NE(image_desc_problem(d).find("filter: linear filtering returns floats"),
            std::string::npos);
  d.read = ReadMode::NormalizedFloat;
  EXPECT_EQ(image_desc_problem(d), "");
}

TEST(TextureSampler, PointSamplingPicksTheTexelUnderTheCoordinate) {
  ImageDesc d = desc2d(4, 3);
  const int32_t off[3] = {0, 0, 0};
  const float c[2] = {2.99f, 0.0f};
  SamplePlan p = plan_fetch(d, c, off);
  ASSERT_EQ(p.count, 1u);
  EXPECT_EQ(p.taps[0].x, 2);
  EXPECT_EQ(p.taps[0].y, 0);
  // Normalised: 0.5 of 4 texels is texel 2; 1.1 wraps to 0.1 -> texel 0.
  d.normalized_coords = true;
  d.address[0] = AddressMode::Wrap;
  const float n[2] = {1.1f, 0.5f};
  p = plan_fetch(d, n, off);
  EXPECT_EQ(p.taps[0].x, 0);
  EXPECT_EQ(p.taps[0].y, 1);
}

TEST(TextureSampler, AddressModesOnIndices) {
  ImageDesc d;
  d.width = 4;
  d.normalized_coords = true;
  const int32_t off[3] = {0, 0, 0};
  auto index = [&](AddressMode m, float x, bool* border) {
    d.address[0] = m;
    const SamplePlan p = plan_fetch(d, &x, off);
    *border = p.taps[0].border;
    return p.taps[0].x;
  };
  bool border = false;
  // x = -0.3 -> texel -1.2 -> index -2.
  EXPECT_EQ(index(AddressMode::Clamp, -0.3f, &border), 0);
  EXPECT_EQ(index(AddressMode::Wrap, -0.3f, &border), 2);
  EXPECT_EQ(index(AddressMode::Mirror, -0.3f, &border), 1);
  index(AddressMode::Border, -0.3f, &border);
  EXPECT_TRUE(border);
  // x = 1.6 -> texel 6.4 -> index 6: mirror folds 4..7 onto 3..0.
  EXPECT_EQ(index(AddressMode::Mirror, 1.6f, &border), 1);
  EXPECT_EQ(index(AddressMode::Wrap, 1.6f, &border), 2);
  // Unnormalised coordinates: wrap and mirror clamp.
  d.normalized_coords = false;
  EXPECT_EQ(index(AddressMode::Wrap, 9.0f, &border), 3);
  EXPECT_EQ(index(AddressMode::Mirror, -3.0f, &border), 0);
}

TEST(TextureSampler, LinearWeightsAreNineBitFixedPoint) {
  ImageDesc d;
  d.width = 8;
  d.filter = FilterMode::Linear;
  const int32_t off[3] = {0, 0, 0};
  const float x = 2.3f;  // 1.8 after the half-texel shift: 0.8 -> 205/256
  const SamplePlan p = plan_fetch(d, &x, off);
  ASSERT_EQ(p.count, 2u);
  EXPECT_EQ(p.taps[0].x, 1);
  EXPECT_EQ(p.taps[1].x, 2);
  EXPECT_EQ(p.taps[0].weight, 51.0 / 256);
  EXPECT_EQ(p.taps[1].weight, 205.0 / 256);
}

TEST(TextureSampler, BilinearHasFourTapsWithProductWeights) {
  ImageDesc d = desc2d(8, 8);
  d.filter = FilterMode::Linear;
  const int32_t off[3] = {1, 0, 0};  // a texel offset moves the footprint
  const float c[2] = {1.75f, 3.0f};  // shifted: 1.25 and 2.5
  const SamplePlan p = plan_fetch(d, c, off);
  ASSERT_EQ(p.count, 4u);
  double total = 0;
  for (unsigned i = 0; i < 4; ++i) total += p.taps[i].weight;
  EXPECT_EQ(total, 1.0);
  EXPECT_EQ(p.taps[0].x, 2);
  EXPECT_EQ(p.taps[0].y, 2);
  EXPECT_EQ(p.taps[0].weight, 0.75 * 0.5);
  EXPECT_EQ(p.taps[3].x, 3);
  EXPECT_EQ(p.taps[3].y, 3);
  EXPECT_EQ(p.taps[3].weight, 0.25 * 0.5);
}

TEST(TextureSampler, GatherOrderIsCounterClockwiseFromLowerLeft) {
  const ImageDesc d = desc2d(8, 8);
  const int32_t off[3] = {0, 0, 0};
  const float c[2] = {3.2f, 5.9f};  // footprint's upper left: (2, 5)
  const SamplePlan p = plan_gather(d, c, off);
  ASSERT_EQ(p.count, 4u);
  const int64_t want[4][2] = {{2, 6}, {3, 6}, {3, 5}, {2, 5}};
  for (unsigned i = 0; i < 4; ++i) {
    EXPECT_EQ(p.taps[i].x, want[i][0]) << i;
    EXPECT_EQ(p.taps[i].y, want[i][1]) << i;
  }
}

TEST(TextureSampler, NonFiniteCoordinatesReadTexelZero) {
  ImageDesc d;
  d.width = 8;
  const int32_t off[3] = {0, 0, 0};
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(plan_fetch(d, &nan, off).taps[0].x, 0);
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(plan_fetch(d, &inf, off).taps[0].x, 0);
}

}  // namespace
}  // namespace warptlm
