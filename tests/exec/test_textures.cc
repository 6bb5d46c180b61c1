// Texture and surface objects end to end (tests/data/ptx/textures: nvcc's PTX
// of CUDA code using tex1Dfetch, tex1D, tex2D, tex3D, tex2Dgather,
// surf2Dread and surf2Dwrite): results against a host reference written from
// the CUDA Programming Guide's texture-fetching formulas, every address
// mode, point and linear filtering, normalised coordinates and read modes;
// the faults for bad handles and surface accesses outside the surface; the
// launch's checks; and the parser's errors for what is not modelled.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "common/texture_launches.h"
#include "exec/functional_executor.h"
#include "exec/prepared_program.h"
#include "frontend/ptx_error.h"
#include "frontend/ptx_parser.h"
#include "simt/reconvergence_unit.h"

namespace warptlm {
namespace {
using namespace warptlm::testing;

const Module& textures_module() {
  static const Module m = parse_ptx_file(kTextureDir + "textures.nvcc.ptx");
  return m;
}

void run(const std::string& kernel, LaunchSpec& l, const ExecConfig& c = ExecConfig{}) {
  const Module& m = textures_module();
  run_functional(prepare_program(m, c.reconvergence), resolve_kernel_name(m, kernel), l, c);
}

// The guide's address modes on a texel index k of an axis of n texels.
int64_t ref_address(int64_t k, int64_t n, AddressMode mode, bool normalized, bool* border) {
  if (!normalized && (mode == AddressMode::Wrap || mode == AddressMode::Mirror))
    mode = AddressMode::Clamp;
  switch (mode) {
    case AddressMode::Border:
      if (k < 0 || k >= n) *border = true;
      return k;
    case AddressMode::Wrap:
      return ((k % n) + n) % n;
    case AddressMode::Mirror: {
      const int64_t r = ((k % (2 * n)) + 2 * n) % (2 * n);
      return r < n ? r : 2 * n - 1 - r;
    }
    default:
      return std::min(std::max<int64_t>(k, 0), n - 1);
  }
}

// tex2D<float> of a one-channel float image: the guide's formulas, with the
// linear weights in 9-bit fixed point.
float ref_sample2d(const std::vector<float>& img, int64_t w, int64_t h, const ImageDesc& s,
                   float fx, float fy) {
  double x = fx, y = fy;
  if (s.normalized_coords) {
    x *= double(w);
    y *= double(h);
  }
  auto texel = [&](int64_t i, int64_t j) -> double {
    bool border = false;
    const int64_t a = ref_address(i, w, s.address[0], s.normalized_coords, &border);
    const int64_t b = ref_address(j, h, s.address[1], s.normalized_coords, &border);
    return border ? double(s.border[0]) : double(img[size_t(b * w + a)]);
  };
  if (s.filter == FilterMode::Point)
    return float(texel(int64_t(std::floor(x)), int64_t(std::floor(y))));
  const double xb = x - 0.5, yb = y - 0.5;
  const int64_t i = int64_t(std::floor(xb)), j = int64_t(std::floor(yb));
  const double a = std::nearbyint((xb - std::floor(xb)) * 256) / 256;
  const double b = std::nearbyint((yb - std::floor(yb)) * 256) / 256;
  return float((1 - a) * (1 - b) * texel(i, j) + a * (1 - b) * texel(i + 1, j) +
               (1 - a) * b * texel(i, j + 1) + a * b * texel(i + 1, j + 1));
}

void expect_sample2d(const ImageDesc& s, uint32_t w, uint32_t h, float x0, float y0, float dx,
                     float dy) {
  LaunchSpec l = sample2d_launch(s, w, h, x0, y0, dx, dy);
  run("sample2d", l);
  const std::vector<float> img = test_image(64, 48);
  const std::vector<float> out = typed_values<float>(l.buffers[1]);
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) {
      const float fx = float(x) * dx + x0, fy = float(y) * dy + y0;  // exact products
      ASSERT_EQ(out[y * w + x], ref_sample2d(img, 64, 48, s, fx, fy))
          << "sample (" << x << ", " << y << ") at (" << fx << ", " << fy << ")";
    }
}

TEST(Textures, Tex1DfetchClampsOrReturnsTheBorderOutsideTheTexture) {
  std::vector<int32_t> values(10);
  for (int i = 0; i < 10; ++i) values[i] = 1000 + i * i;
  for (AddressMode mode : {AddressMode::Clamp, AddressMode::Border}) {
    LaunchSpec l;
    l.block = {32, 1, 1};
    l.buffers.push_back(typed_buffer("values", values));
    l.buffers.push_back(typed_buffer("out", std::vector<int32_t>(16, -1)));
    LaunchImage im;
    im.desc = texture_desc(1, 10, 1, 1, TexelType::S32, 1);
    im.desc.address[0] = mode;
    l.images.push_back(im);
    l.args = {KernelArg::image_arg(0), KernelArg::buffer_arg(1), KernelArg::scalar(Type::U32, 16),
              KernelArg::scalar(Type::U32, uint32_t(-3))};
    run("fetch1d", l);
    const std::vector<int32_t> out = typed_values<int32_t>(l.buffers[1]);
    for (int i = 0; i < 16; ++i) {
      const int k = i - 3;
      const int32_t want = k >= 0 && k < 10              ? values[k]
                           : mode == AddressMode::Border ? 0
                                                         : values[std::clamp(k, 0, 9)];
      EXPECT_EQ(out[i], want) << address_mode_name(mode) << " index " << k;
    }
  }
}

TEST(Textures, Tex1DLinearFilteringUsesNineBitWeights) {
  // Texel centres at 0.5, 1.5, ...: at 1.3 the fraction is 0.8, which 8
  // fractional bits hold as 205/256.
  const std::vector<float> values = {0, 10, 20, 30, 40};
  const std::vector<float> xs = {0.5f, 1.0f, 1.25f, 1.3f, 4.5f, 4.9f, -2.0f};
  const std::vector<float> want = {0, 5, 7.5f, float(205.0 / 256 * 10), 40, 40, 0};
  LaunchSpec l;
  l.block = {32, 1, 1};
  l.buffers.push_back(typed_buffer("values", values));
  l.buffers.push_back(typed_buffer("out", std::vector<float>(xs.size(), -1)));
  LaunchImage im;
  im.desc = texture_desc(1, 5, 1, 1, TexelType::F32, 1);
  im.desc.filter = FilterMode::Linear;
  l.images.push_back(im);
  for (size_t i = 0; i < xs.size(); ++i) {
    // One launch per coordinate: x0 = xs[i], one sample.
    LaunchSpec one = l;
    one.buffers[1] = typed_buffer("out", std::vector<float>(1, -1));
    one.args = {KernelArg::image_arg(0), KernelArg::buffer_arg(1), KernelArg::scalar(Type::U32, 1),
                KernelArg::scalar(Type::F32, float_bits(xs[i])),
                KernelArg::scalar(Type::F32, float_bits(0))};
    run("sample1d", one);
    EXPECT_EQ(typed_values<float>(one.buffers[1])[0], want[i]) << "at x = " << xs[i];
  }
}

TEST(Textures, Tex2DPointAndLinearUnderEveryAddressMode) {
  for (FilterMode filter : {FilterMode::Point, FilterMode::Linear})
    for (AddressMode mode :
         {AddressMode::Wrap, AddressMode::Clamp, AddressMode::Mirror, AddressMode::Border})
      for (bool normalized : {false, true}) {
        SCOPED_TRACE(std::string(filter_mode_name(filter)) + ", " + address_mode_name(mode) +
                     (normalized ? ", normalised" : ", texel coordinates"));
        ImageDesc s;
        s.filter = filter;
        s.address[0] = s.address[1] = mode;
        s.normalized_coords = normalized;
        s.border[0] = -7.5f;
        if (normalized)
          expect_sample2d(s, 40, 20, -0.3f, -0.45f, 1.0f / 16, 1.0f / 8);
        else
          expect_sample2d(s, 40, 20, -5.3f, -4.1f, 1.875f, 2.875f);
      }
}

TEST(Textures, NormalisedFloatReadModeScalesUnsignedBytes) {
  std::vector<uint8_t> px(8 * 4 * 4);
  for (size_t i = 0; i < px.size(); ++i) px[i] = static_cast<uint8_t>(i * 29 + 3);
  LaunchSpec l;
  l.block = {8, 4, 1};
  l.buffers.push_back(typed_buffer("pixels", px));
  l.buffers.push_back(typed_buffer("out", std::vector<float>(8 * 4 * 4, -1)));
  LaunchImage im;
  im.desc = texture_desc(2, 8, 4, 1, TexelType::U8, 4);
  im.desc.read = ReadMode::NormalizedFloat;
  l.images.push_back(im);
  l.args = {KernelArg::image_arg(0),
            KernelArg::buffer_arg(1),
            KernelArg::scalar(Type::U32, 8),
            KernelArg::scalar(Type::U32, 4),
            KernelArg::scalar(Type::F32, float_bits(0.5f)),
            KernelArg::scalar(Type::F32, float_bits(0.5f)),
            KernelArg::scalar(Type::F32, float_bits(1)),
            KernelArg::scalar(Type::F32, float_bits(1))};
  run("sample2d_rgba", l);
  const std::vector<float> out = typed_values<float>(l.buffers[1]);
  for (size_t i = 0; i < px.size(); ++i) EXPECT_EQ(out[i], float(px[i] / 255.0)) << i;
}

TEST(Textures, Tex3DTrilinear) {
  const uint32_t w = 6, h = 5, d = 4;
  std::vector<float> vol(w * h * d);
  for (size_t i = 0; i < vol.size(); ++i) vol[i] = float((i * 5) % 17);
  LaunchSpec l;
  l.grid = {1, h, d};
  l.block = {8, 1, 1};
  l.buffers.push_back(typed_buffer("volume", vol));
  l.buffers.push_back(typed_buffer("out", std::vector<float>(vol.size(), -1)));
  LaunchImage im;
  im.desc = texture_desc(3, w, h, d, TexelType::F32, 1);
  im.desc.filter = FilterMode::Linear;
  l.images.push_back(im);
  l.args = {KernelArg::image_arg(0),         KernelArg::buffer_arg(1),
            KernelArg::scalar(Type::U32, w), KernelArg::scalar(Type::U32, h),
            KernelArg::scalar(Type::U32, d), KernelArg::scalar(Type::F32, float_bits(1))};
  run("sample3d", l);
  const std::vector<float> out = typed_values<float>(l.buffers[1]);
  // Coordinates (x + 0.25, y + 0.5, z + 0.75): in texel space the fractions
  // after the half-texel shift are 0.75 (x, from texel x - 1), 0 and 0.25.
  auto at = [&](int64_t x, int64_t y, int64_t z) {
    x = std::clamp<int64_t>(x, 0, w - 1);
    y = std::clamp<int64_t>(y, 0, h - 1);
    z = std::clamp<int64_t>(z, 0, d - 1);
    return double(vol[(z * h + y) * w + x]);
  };
  for (uint32_t z = 0; z < d; ++z)
    for (uint32_t y = 0; y < h; ++y)
      for (uint32_t x = 0; x < w; ++x) {
        const double lo = 0.75 * at(x, y, z) + 0.25 * at(int64_t(x) - 1, y, z);
        const double hi = 0.75 * at(x, y, z + 1) + 0.25 * at(int64_t(x) - 1, y, z + 1);
        EXPECT_EQ(out[(z * h + y) * w + x], float(0.75 * lo + 0.25 * hi))
            << x << "," << y << "," << z;
      }
}

TEST(Textures, Tex2DgatherReturnsTheFootprintCounterClockwiseFromLowerLeft) {
  std::vector<float> px(5 * 4 * 2);
  for (size_t i = 0; i < px.size(); ++i) px[i] = float(i);
  LaunchSpec l;
  l.block = {5, 4, 1};
  l.buffers.push_back(typed_buffer("pixels", px));
  l.buffers.push_back(typed_buffer("out", std::vector<float>(5 * 4 * 4, -1)));
  LaunchImage im;
  im.desc = texture_desc(2, 5, 4, 1, TexelType::F32, 2);
  l.images.push_back(im);
  l.args = {KernelArg::image_arg(0),
            KernelArg::buffer_arg(1),
            KernelArg::scalar(Type::U32, 5),
            KernelArg::scalar(Type::U32, 4),
            KernelArg::scalar(Type::F32, float_bits(0.75f)),
            KernelArg::scalar(Type::F32, float_bits(0.75f))};
  run("gather2d", l);
  const std::vector<float> out = typed_values<float>(l.buffers[1]);
  auto green = [&](int64_t x, int64_t y) {
    x = std::clamp<int64_t>(x, 0, 4);
    y = std::clamp<int64_t>(y, 0, 3);
    return px[size_t((y * 5 + x) * 2 + 1)];
  };
  for (int64_t y = 0; y < 4; ++y)
    for (int64_t x = 0; x < 5; ++x) {
      // (x + 0.75, y + 0.75) - 0.5: the footprint's upper left is texel (x, y).
      const float* o = &out[size_t((y * 5 + x) * 4)];
      EXPECT_EQ(o[0], green(x, y + 1));
      EXPECT_EQ(o[1], green(x + 1, y + 1));
      EXPECT_EQ(o[2], green(x + 1, y));
      EXPECT_EQ(o[3], green(x, y));
    }
}

TEST(Textures, RotationByZeroSamplesBetweenTexelsWithWrap) {
  const std::vector<float> img = test_image(64, 48);
  LaunchSpec l;
  l.grid = {4, 6, 1};
  l.block = {16, 8, 1};
  l.buffers.push_back(typed_buffer("image", img));
  l.buffers.push_back(typed_buffer("out", std::vector<float>(64 * 48, -1)));
  LaunchImage im;
  im.desc = texture_desc(2, 64, 48, 1, TexelType::F32, 1);
  im.desc.filter = FilterMode::Linear;
  im.desc.address[0] = im.desc.address[1] = AddressMode::Wrap;
  im.desc.normalized_coords = true;
  l.images.push_back(im);
  l.args = {KernelArg::image_arg(0), KernelArg::buffer_arg(1), KernelArg::scalar(Type::U32, 64),
            KernelArg::scalar(Type::U32, 48), KernelArg::scalar(Type::F32, float_bits(0))};
  run("rotate", l);
  const std::vector<float> out = typed_values<float>(l.buffers[1]);
  // At angle 0, pixel (x, y) samples the corner between texels x-1 and x:
  // the mean of four texels, the row and column before 0 wrapping around.
  for (int y = 0; y < 48; ++y)
    for (int x = 0; x < 64; ++x) {
      const int xm = (x + 63) % 64, ym = (y + 47) % 48;
      const double want = 0.25 * (double(img[y * 64 + x]) + img[y * 64 + xm] + img[ym * 64 + x] +
                                  img[ym * 64 + xm]);
      ASSERT_EQ(out[y * 64 + x], float(want)) << x << "," << y;
    }
}

TEST(Textures, SurfaceReadWriteWithZeroBoundaryMode) {
  for (int shift : {0, 3}) {
    LaunchSpec l = invert_launch(shift);
    const std::vector<uint8_t> before = typed_values<uint8_t>(l.buffers[0]);
    run("invert_shifted", l);
    const std::vector<uint8_t> after = typed_values<uint8_t>(l.buffers[0]);
    for (int y = 0; y < 20; ++y)
      for (int x = 0; x < 40; ++x) {
        const int sx = x + shift;
        for (int c = 0; c < 4; ++c) {
          const uint8_t v = sx < 40 ? before[(y * 40 + sx) * 4 + c] : 0;
          EXPECT_EQ(after[(y * 40 + x) * 4 + c], c == 3 ? v : uint8_t(255 - v))
              << "shift " << shift << " pixel " << x << "," << y << " channel " << c;
        }
      }
  }
}

TEST(Textures, SurfaceClampBoundaryModeReadsTheEdge) {
  std::vector<float> src(12 * 6);
  for (size_t i = 0; i < src.size(); ++i) src[i] = float(i) * 0.5f;
  LaunchSpec l;
  l.block = {16, 8, 1};
  l.buffers.push_back(typed_buffer("src", src));
  l.buffers.push_back(typed_buffer("dst", std::vector<float>(src.size(), -1)));
  for (uint32_t b : {0u, 1u}) {
    LaunchImage im;
    im.desc = texture_desc(2, 12, 6, 1, TexelType::F32, 1);
    im.desc.kind = ImageDesc::Kind::Surface;
    im.buffer = b;
    l.images.push_back(im);
  }
  l.args = {KernelArg::image_arg(0), KernelArg::image_arg(1), KernelArg::scalar(Type::U32, 12),
            KernelArg::scalar(Type::U32, 6), KernelArg::scalar(Type::U32, 5)};
  run("copy_clamped", l);
  const std::vector<float> dst = typed_values<float>(l.buffers[1]);
  for (int y = 0; y < 6; ++y)
    for (int x = 0; x < 12; ++x) EXPECT_EQ(dst[y * 12 + x], src[y * 12 + std::min(x + 5, 11)]);
}

TEST(Textures, SurfaceWriteOutsideUnderTrapFaultsNamingTheThread) {
  // Width 40 but a launch over 48 columns with the kernel told 48: the
  // columns past 40 write outside the surface.
  LaunchSpec l = invert_launch(0);
  l.args[1] = KernelArg::scalar(Type::U32, 48);
  try {
    run("invert_shifted", l);
    FAIL() << "no fault";
  } catch (const KernelFault& f) {
    const std::string what = f.what();
    EXPECT_NE(what.find("sust.b.trap: byte 160 of row "), std::string::npos) << what;
    EXPECT_NE(what.find("outside the 40x20x1 surface of 4-byte texels"), std::string::npos) << what;
    EXPECT_EQ(f.site.ctaid.x, 2u) << what;  // column 40: CTA 2's threads 8 to 15 of a row
    EXPECT_EQ(f.site.tid.x, 8u) << what;    // the lowest of them in the faulting warp
  }
}

TEST(Textures, AHandleThatNamesNoTextureIsAKernelFault) {
  LaunchSpec l = sample2d_launch(ImageDesc{}, 8, 8, 0, 0, 1, 1);
  // A plain buffer's address where the texture object belongs.
  l.args[0] = KernelArg::buffer_arg(1);
  try {
    run("sample2d", l);
    FAIL() << "no fault";
  } catch (const KernelFault& f) {
    EXPECT_NE(std::string(f.what()).find("names no texture object"), std::string::npos) << f.what();
  }
  // A surface object passed as a texture.
  LaunchSpec s = sample2d_launch(ImageDesc{}, 8, 8, 0, 0, 1, 1);
  s.images[0].desc.kind = ImageDesc::Kind::Surface;
  try {
    run("sample2d", s);
    FAIL() << "no fault";
  } catch (const KernelFault& f) {
    EXPECT_NE(std::string(f.what()).find("is a surface object, not a texture object"),
              std::string::npos)
        << f.what();
  }
}

TEST(Textures, AFetchOfAnotherGeometryAndAMisalignedSurfaceAccessFault) {
  // sample2d's tex.2d on a 1D texture.
  LaunchSpec l = sample2d_launch(ImageDesc{}, 8, 8, 0, 0, 1, 1);
  l.images[0].desc.dims = 1;
  l.images[0].desc.height = 1;
  try {
    run("sample2d", l);
    FAIL() << "no fault";
  } catch (const KernelFault& f) {
    EXPECT_NE(std::string(f.what()).find("tex.2d reads a 1D texture"), std::string::npos)
        << f.what();
  }
  // A 4-byte surface store at byte 2.
  const std::string src = R"(.version 7.0
.target sm_75
.address_size 64
.visible .entry w(.param .u64 s)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [s];
  mov.u32 %r1, 2;
  mov.u32 %r2, 7;
  sust.b.1d.b32.trap [%rd1, {%r1}], {%r2};
  ret;
}
)";
  const Module m = parse_ptx(src, "w.ptx");
  LaunchSpec w;
  w.buffers.push_back(typed_buffer("texels", std::vector<uint32_t>(8)));
  LaunchImage im;
  im.desc = texture_desc(1, 8, 1, 1, TexelType::U32, 1);
  im.desc.kind = ImageDesc::Kind::Surface;
  w.images.push_back(im);
  w.args = {KernelArg::image_arg(0)};
  try {
    run_functional(prepare_program(m, "ipdom"), "w", w, ExecConfig{});
    FAIL() << "no fault";
  } catch (const KernelFault& f) {
    EXPECT_NE(std::string(f.what()).find("sust.b: byte 2 is not aligned to the 4-byte access"),
              std::string::npos)
        << f.what();
  }
}

TEST(Textures, TheLaunchChecksEveryObject) {
  auto refused = [](LaunchSpec l, const std::string& part) {
    try {
      run("sample2d", l);
      ADD_FAILURE() << "accepted; wanted: " << part;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  };
  LaunchSpec big = sample2d_launch(ImageDesc{}, 8, 8, 0, 0, 1, 1);
  big.images[0].desc.height = 49;
  refused(big, "texture object 0: its 64x49x1 texels of 4 bytes need 12544 bytes");
  LaunchSpec linear_int = sample2d_launch(ImageDesc{}, 8, 8, 0, 0, 1, 1);
  linear_int.images[0].desc.type = TexelType::S32;
  linear_int.images[0].desc.filter = FilterMode::Linear;
  refused(linear_int, "filter: linear filtering returns floats; s32 texels need read mode");
  LaunchSpec bad_index = sample2d_launch(ImageDesc{}, 8, 8, 0, 0, 1, 1);
  bad_index.args[0] = KernelArg::image_arg(3);
  refused(bad_index, "names texture/surface 3 but the launch has 1");
}

TEST(Textures, ResultTypeMustMatchTheReadMode) {
  // sample2d's tex.f32 on integer texels read as element type.
  LaunchSpec l = sample2d_launch(ImageDesc{}, 8, 8, 0, 0, 1, 1);
  l.images[0].desc.type = TexelType::U32;
  try {
    run("sample2d", l);
    FAIL() << "no fault";
  } catch (const KernelFault& f) {
    EXPECT_NE(std::string(f.what()).find("tex.f32 reads a texture of u32 texels in read mode "
                                         "element_type"),
              std::string::npos)
        << f.what();
  }
}

// Hand-written PTX for what CUDA C does not reach: txq and suq.
TEST(Textures, TxqAndSuqReportTheObjectsAttributes) {
  const std::string src = R"(.version 7.0
.target sm_75
.address_size 64
.visible .entry q(.param .u64 t, .param .u64 s, .param .u64 out)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [t];
  ld.param.u64 %rd2, [s];
  ld.param.u64 %rd3, [out];
  cvta.to.global.u64 %rd4, %rd3;
  txq.width.b32 %r1, [%rd1];
  txq.height.b32 %r2, [%rd1];
  txq.depth.b32 %r3, [%rd1];
  txq.normalized_coords.b32 %r4, [%rd1];
  txq.filter_mode.b32 %r5, [%rd1];
  txq.addr_mode_0.b32 %r6, [%rd1];
  txq.addr_mode_1.b32 %r7, [%rd1];
  suq.width.b32 %r8, [%rd2];
  suq.height.b32 %r9, [%rd2];
  suq.depth.b32 %r10, [%rd2];
  st.global.v4.u32 [%rd4], {%r1, %r2, %r3, %r4};
  st.global.v4.u32 [%rd4+16], {%r5, %r6, %r7, %r8};
  st.global.v2.u32 [%rd4+32], {%r9, %r10};
  ret;
}
)";
  const Module m = parse_ptx(src, "q.ptx");
  LaunchSpec l;
  l.buffers.push_back(typed_buffer("texels", std::vector<float>(7 * 3 * 2)));
  l.buffers.push_back(typed_buffer("out", std::vector<uint32_t>(10, 99)));
  LaunchImage t;
  t.desc = texture_desc(2, 7, 3, 1, TexelType::F32, 1);
  t.desc.normalized_coords = true;
  t.desc.filter = FilterMode::Linear;
  t.desc.address[0] = AddressMode::Mirror;
  t.desc.address[1] = AddressMode::Border;
  LaunchImage s;
  s.desc = texture_desc(3, 7, 3, 2, TexelType::F32, 1);
  s.desc.kind = ImageDesc::Kind::Surface;
  l.images = {t, s};
  l.args = {KernelArg::image_arg(0), KernelArg::image_arg(1), KernelArg::buffer_arg(1)};
  run_functional(prepare_program(m, "ipdom"), "q", l, ExecConfig{});
  EXPECT_EQ(typed_values<uint32_t>(l.buffers[1]),
            (std::vector<uint32_t>{7, 3, 1, 1, 1, 1, 4, 7, 3, 2}));
}

TEST(Textures, WhatIsNotModelledIsAnErrorAtItsPosition) {
  const std::string head =
      ".version 7.0\n.target sm_75\n.address_size 64\n"
      ".visible .entry k(.param .u64 t)\n{\n  .reg .f32 %f<9>;\n"
      "  .reg .b32 %r<9>;\n  .reg .b64 %rd<3>;\n  ld.param.u64 %rd1, [t];\n";
  struct Case {
    const char* line;
    const char* message;
  };
  const Case cases[] = {
      {"  tex.a2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1, %f5, %f6, %f6}];",
       "layered, cube and multisample textures and surfaces are not supported"},
      {"  tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, %rd2, {%f5, %f6}];",
       "with a separate sampler (independent texturing mode) is not supported"},
      {"  tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}], %f7;",
       "depth-compare operand is not supported"},
      {"  sust.p.2d.b32.trap [%rd1, {%r1, %r2}], {%r3};",
       "'sust.p' (formatted surface access) is not supported"},
      {"  txq.channel_order.b32 %r1, [%rd1];", "'txq.channel_order' is not supported"},
      {"  tld4.r.3d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6, %f7, %f7}];",
       "'tld4' needs a geometry (.2d)"},
      {"  ld.global.f32 %f1, [%rd1, %rd2];", "a list [a, b] is only for texture and surface"},
  };
  for (const Case& c : cases) {
    try {
      parse_ptx(head + c.line + "\n  ret;\n}\n", "bad.ptx");
      ADD_FAILURE() << "accepted: " << c.line;
    } catch (const PtxError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("bad.ptx:10:"), std::string::npos) << what;
      EXPECT_NE(what.find(c.message), std::string::npos) << what;
    }
  }
}

TEST(Textures, EverySchemeAndWarpSizeGivesTheSameSamples) {
  ImageDesc s;
  s.filter = FilterMode::Linear;
  s.address[0] = s.address[1] = AddressMode::Mirror;
  s.normalized_coords = true;
  LaunchSpec base = sample2d_launch(s, 40, 20, -0.3f, -0.45f, 1.0f / 16, 1.0f / 8);
  run("sample2d", base);
  for (const std::string& scheme : reconvergence_names())
    for (unsigned ws : {8u, 32u}) {
      SCOPED_TRACE(scheme + ", warp size " + std::to_string(ws));
      LaunchSpec l = sample2d_launch(s, 40, 20, -0.3f, -0.45f, 1.0f / 16, 1.0f / 8);
      ExecConfig c;
      c.reconvergence = scheme;
      c.warp_size = ws;
      run("sample2d", l, c);
      EXPECT_EQ(l.buffers[1].bytes, base.buffers[1].bytes);
    }
}

}  // namespace
}  // namespace warptlm
