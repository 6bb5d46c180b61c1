#include "texture/texture_sampler.h"

#include <algorithm>
#include <cmath>

namespace warptlm {
namespace {

// Wrap and mirror need normalised coordinates (CUDA Programming Guide); with
// unnormalised ones, and for integer coordinates, they clamp.
AddressMode effective_mode(const ImageDesc& d, unsigned dim, bool normalized) {
  const AddressMode m = d.address[dim];
  if (!normalized && (m == AddressMode::Wrap || m == AddressMode::Mirror))
    return AddressMode::Clamp;
  return m;
}

// Texel index i of an axis of n texels through address mode m; false for a
// border texel.
bool resolve(int64_t& i, int64_t n, AddressMode m) {
  switch (m) {
    case AddressMode::Wrap:
      i = ((i % n) + n) % n;
      return true;
    case AddressMode::Mirror: {
      const int64_t r = ((i % (2 * n)) + 2 * n) % (2 * n);
      i = r < n ? r : 2 * n - 1 - r;
      return true;
    }
    case AddressMode::Border:
      return i >= 0 && i < n;
    default:
      i = std::clamp<int64_t>(i, 0, n - 1);
      return true;
  }
}

int64_t axis_size(const ImageDesc& d, unsigned dim) {
  return dim == 0 ? d.width : dim == 1 ? d.height : d.depth;
}

// The coordinate in texel space: scaled when normalised; NaN and infinities
// go to 0 and huge values are held where the index arithmetic cannot
// overflow (the PTX ISA leaves both undefined).
double texel_space(const ImageDesc& d, unsigned dim, float c) {
  double u = std::isfinite(c) ? static_cast<double>(c) : 0.0;
  if (d.normalized_coords) u *= static_cast<double>(axis_size(d, dim));
  return std::clamp(u, -1e12, 1e12);
}

// The fraction as linear filtering uses it: 9-bit fixed point with 8
// fractional bits, rounded to nearest (the guide gives the format, not the
// rounding).
double filter_weight(double frac) { return std::nearbyint(frac * 256.0) / 256.0; }

void add_tap(SamplePlan& p, const ImageDesc& d, const int64_t* idx, double weight,
             bool normalized) {
  TexelTap t;
  t.weight = weight;
  int64_t v[3] = {idx[0], d.dims > 1 ? idx[1] : 0, d.dims > 2 ? idx[2] : 0};
  for (unsigned k = 0; k < d.dims; ++k)
    if (!resolve(v[k], axis_size(d, k), effective_mode(d, k, normalized))) t.border = true;
  t.x = v[0];
  t.y = v[1];
  t.z = v[2];
  p.taps[p.count++] = t;
}

}  // namespace

SamplePlan plan_fetch(const ImageDesc& d, const float* c, const int32_t* off) {
  SamplePlan p;
  const bool norm = d.normalized_coords;
  if (d.filter == FilterMode::Point) {
    int64_t idx[3] = {0, 0, 0};
    for (unsigned k = 0; k < d.dims; ++k)
      idx[k] = static_cast<int64_t>(std::floor(texel_space(d, k, c[k]))) + off[k];
    add_tap(p, d, idx, 1.0, norm);
    return p;
  }
  int64_t base[3] = {0, 0, 0};
  double a[3] = {0, 0, 0};
  for (unsigned k = 0; k < d.dims; ++k) {
    const double u = texel_space(d, k, c[k]) - 0.5;
    const double f = std::floor(u);
    base[k] = static_cast<int64_t>(f) + off[k];
    a[k] = filter_weight(u - f);
  }
  for (unsigned corner = 0; corner < (1u << d.dims); ++corner) {
    int64_t idx[3];
    double w = 1.0;
    for (unsigned k = 0; k < 3; ++k) {
      const bool hi = (corner >> k) & 1;
      idx[k] = base[k] + (hi ? 1 : 0);
      if (k < d.dims) w *= hi ? a[k] : 1.0 - a[k];
    }
    add_tap(p, d, idx, w, norm);
  }
  return p;
}

SamplePlan plan_fetch_integer(const ImageDesc& d, const int32_t* c, const int32_t* off) {
  SamplePlan p;
  int64_t idx[3] = {0, 0, 0};
  for (unsigned k = 0; k < d.dims; ++k) idx[k] = int64_t(c[k]) + off[k];
  add_tap(p, d, idx, 1.0, false);
  return p;
}

SamplePlan plan_gather(const ImageDesc& d, const float* c, const int32_t* off) {
  SamplePlan p;
  int64_t i[2];
  for (unsigned k = 0; k < 2; ++k)
    i[k] = static_cast<int64_t>(std::floor(texel_space(d, k, c[k]) - 0.5)) + off[k];
  const int64_t order[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
  for (const auto& o : order) {
    const int64_t idx[3] = {i[0] + o[0], i[1] + o[1], 0};
    add_tap(p, d, idx, 1.0, d.normalized_coords);
  }
  return p;
}

void border_channels(const ImageDesc& d, double out[4]) {
  out[0] = out[1] = out[2] = 0.0;
  out[3] = 1.0;
  for (unsigned ch = 0; ch < d.channels; ++ch) out[ch] = d.border[ch];
}

}  // namespace warptlm
