// Launches of tests/data/ptx/textures' kernels with texture and surface
// objects, shared by the functional and the timing tests.
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include "exec/launch.h"

namespace warptlm::testing {

inline const std::string kTextureDir = std::string(WARPTLM_TEST_DATA) + "/ptx/textures/";

template <class T>
HostBuffer typed_buffer(const std::string& name, const std::vector<T>& values) {
  HostBuffer b;
  b.name = name;
  b.bytes.resize(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(b.bytes.data(), values.data(), b.bytes.size());
  return b;
}

template <class T>
std::vector<T> typed_values(const HostBuffer& b) {
  std::vector<T> v(b.bytes.size() / sizeof(T));
  if (!v.empty()) std::memcpy(v.data(), b.bytes.data(), b.bytes.size());
  return v;
}

inline ImageDesc texture_desc(unsigned dims, uint32_t w, uint32_t h, uint32_t d, TexelType type,
                              unsigned channels) {
  ImageDesc desc;
  desc.dims = dims;
  desc.width = w;
  desc.height = h;
  desc.depth = d;
  desc.type = type;
  desc.channels = channels;
  return desc;
}

inline uint64_t float_bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

// The 64x48 float image the 2D tests sample: smooth with some edges.
inline std::vector<float> test_image(uint32_t w, uint32_t h) {
  std::vector<float> img(size_t(w) * h);
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x)
      img[size_t(y) * w + x] = float((x * 7 + y * 13) % 23) + (x > w / 2 ? 100.0f : 0.0f);
  return img;
}

// sample2d over a w x h grid of samples at (x0 + x dx, y0 + y dy) from a
// 64x48 float texture with `desc`'s sampling.
inline LaunchSpec sample2d_launch(const ImageDesc& sampling, uint32_t w, uint32_t h, float x0,
                                  float y0, float dx, float dy) {
  LaunchSpec l;
  l.grid = {(w + 15) / 16, (h + 7) / 8, 1};
  l.block = {16, 8, 1};
  l.buffers.push_back(typed_buffer("image", test_image(64, 48)));
  l.buffers.push_back(typed_buffer("out", std::vector<float>(size_t(w) * h, -1.0f)));
  LaunchImage im;
  im.desc = sampling;
  im.desc.dims = 2;
  im.desc.width = 64;
  im.desc.height = 48;
  im.desc.type = TexelType::F32;
  im.desc.channels = 1;
  l.images.push_back(im);
  l.args = {KernelArg::image_arg(0),
            KernelArg::buffer_arg(1),
            KernelArg::scalar(Type::U32, w),
            KernelArg::scalar(Type::U32, h),
            KernelArg::scalar(Type::F32, float_bits(x0)),
            KernelArg::scalar(Type::F32, float_bits(y0)),
            KernelArg::scalar(Type::F32, float_bits(dx)),
            KernelArg::scalar(Type::F32, float_bits(dy))};
  return l;
}

// invert_shifted on a 40x20 uchar4 surface.
inline LaunchSpec invert_launch(int shift) {
  std::vector<uint8_t> px(40 * 20 * 4);
  for (size_t i = 0; i < px.size(); ++i) px[i] = static_cast<uint8_t>(i * 37 + 11);
  LaunchSpec l;
  l.grid = {3, 3, 1};
  l.block = {16, 8, 1};
  l.buffers.push_back(typed_buffer("pixels", px));
  LaunchImage im;
  im.desc = texture_desc(2, 40, 20, 1, TexelType::U8, 4);
  im.desc.kind = ImageDesc::Kind::Surface;
  l.images.push_back(im);
  l.args = {KernelArg::image_arg(0), KernelArg::scalar(Type::U32, 40),
            KernelArg::scalar(Type::U32, 20),
            KernelArg::scalar(Type::U32, static_cast<uint32_t>(shift))};
  return l;
}

}  // namespace warptlm::testing
