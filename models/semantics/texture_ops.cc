// Texture and surface objects: tex tld4 txq suld sust suq (docs/textures.md).
//
// A handle is the device address of a 64-byte descriptor (texture/
// image_desc.h). Each lane's handle is decoded by reading the descriptor
// through WarpEnvironment::peek (untimed: the descriptor fetch of the
// hardware's texture header cache is not modelled); the texels are read
// with load() in lane order, tap order, so the timing model sees every
// texel a fetch reads. A handle that names no valid descriptor, or the wrong
// kind of object, is a LaneError; so is a surface access outside the
// surface under .trap.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "semantics/families.h"
#include "semantics/float16.h"
#include "texture/texture_sampler.h"

namespace warptlm::sem {

namespace {

float f32_of(uint64_t bits) {
  const uint32_t b = static_cast<uint32_t>(bits);
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

uint64_t bits_of(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

// The descriptors of one instruction's handles: lanes usually share one,
// which is read once.
class Descriptors {
 public:
  Descriptors(const Exec& x, ImageDesc::Kind kind) : x_(x), kind_(kind) {}
  const ImageDesc& at(unsigned lane, uint64_t handle) {
    if (valid_ && handle == handle_) return desc_;
    const char* noun = kind_ == ImageDesc::Kind::Texture ? "texture" : "surface";
    const std::string head = std::string(opcode_name(x_.inst.op)) + ": the " + noun + " handle " +
                             hex_string(handle) + " of lane " + std::to_string(lane);
    uint8_t bytes[kImageDescBytes];
    try {
      x_.env.peek(Space::Global, lane, handle, bytes, kImageDescBytes);
    } catch (const MemoryFault& f) {
      throw LaneError(lane, head + " names no " + noun +
                                " object: its descriptor cannot be read (" + f.what() + ")");
    }
    std::string why;
    if (!decode_image_desc(bytes, &desc_, &why))
      throw LaneError(lane, head + " names no " + noun + " object: " + why);
    if (desc_.kind != kind_)
      throw LaneError(lane, head + " is a " +
                                (desc_.kind == ImageDesc::Kind::Texture ? "texture" : "surface") +
                                " object, not a " + noun + " object");
    handle_ = handle;
    valid_ = true;
    return desc_;
  }

 private:
  const Exec& x_;
  ImageDesc::Kind kind_;
  uint64_t handle_ = 0;
  bool valid_ = false;
  ImageDesc desc_;
};

// A texel's channels as the read mode returns them (integers exactly,
// normalised integers in [0, 1] or [-1, 1], f16 widened), the channels the
// texture lacks as (0, 0, 0, 1).
void texel_channels(const ImageDesc& d, const uint8_t* texel, double out[4]) {
  out[0] = out[1] = out[2] = 0.0;
  out[3] = 1.0;
  const unsigned cb = channel_bytes(d.type);
  const bool norm = d.read == ReadMode::NormalizedFloat;
  for (unsigned ch = 0; ch < d.channels; ++ch) {
    const uint8_t* b = texel + ch * cb;
    uint32_t raw = 0;
    std::memcpy(&raw, b, cb);
    switch (d.type) {
      case TexelType::U8:
        out[ch] = norm ? raw / 255.0 : raw;
        break;
      case TexelType::S8:
        out[ch] = norm ? std::max(int8_t(raw) / 127.0, -1.0) : int8_t(raw);
        break;
      case TexelType::U16:
        out[ch] = norm ? raw / 65535.0 : raw;
        break;
      case TexelType::S16:
        out[ch] = norm ? std::max(int16_t(raw) / 32767.0, -1.0) : int16_t(raw);
        break;
      case TexelType::U32:
        out[ch] = raw;
        break;
      case TexelType::S32:
        out[ch] = int32_t(raw);
        break;
      case TexelType::F16:
        out[ch] = f16_to_double(static_cast<uint16_t>(raw));
        break;
      default:
        out[ch] = f32_of(raw);
    }
  }
}

// Whether the texture returns floats (float texels or normalised integers).
bool returns_float(const ImageDesc& d) {
  return is_float_texel(d.type) || d.read == ReadMode::NormalizedFloat;
}

// One channel value as the instruction's result type.
uint64_t result_bits(double v, Type t) {
  if (t == Type::F32) return bits_of(static_cast<float>(v));
  // Integer results are point samples of integer texels (exact) or a border
  // colour, converted toward zero and held in 32 bits.
  if (!std::isfinite(v)) return 0;
  const double c = std::fmax(std::fmin(v, 4294967295.0), -2147483648.0);
  return static_cast<uint64_t>(static_cast<int64_t>(c)) & 0xffffffffull;
}

void check_result_type(const Exec& x, unsigned lane, const ImageDesc& d) {
  const Type t = x.inst.type;
  if (t == Type::F32 && !returns_float(d))
    throw LaneError(lane, std::string(opcode_name(x.inst.op)) + ".f32 reads a texture of " +
                              texel_type_name(d.type) +
                              " texels in read mode element_type, which returns integers: "
                              "use .s32/.u32, or read mode normalized_float");
  if (t != Type::F32 && returns_float(d))
    throw LaneError(lane, std::string(opcode_name(x.inst.op)) + "." + type_name(t) +
                              " reads a texture that returns floats (" + texel_type_name(d.type) +
                              " texels, read mode " + read_mode_name(d.read) + "): use .f32");
}

// The values of a Vector operand's elements for lane `lane`, read as t.
void vector_values(const Exec& x, const Operand& v, Type t, LaneMask m, LaneValues* out,
                   unsigned n) {
  for (unsigned k = 0; k < n && k < v.elems.size(); ++k)
    Source(x, v.elems[k], t).gather(m, x.warp_size(), out[k]);
}

// tex and tld4.
void fetch(const Exec& x) {
  const Instruction& in = x.inst;
  const bool gather = in.op == Opcode::Tld4;
  const LaneMask m = x.executed;
  const unsigned ws = x.warp_size();
  const unsigned dims = in.geom == TexGeom::D1 ? 1 : in.geom == TexGeom::D2 ? 2 : 3;
  LaneValues handles, coords[4] = {}, offsets[4] = {};
  x.src(2, Type::U64).gather(m, ws, handles);
  vector_values(x, x.op(3), in.src_type, m, coords, dims);
  if (x.has(6)) vector_values(x, x.op(6), Type::S32, m, offsets, dims);
  LaneValues result[4];
  Descriptors descriptors(x, ImageDesc::Kind::Texture);
  for_lanes(m, [&](unsigned lane) {
    const ImageDesc& d = descriptors.at(lane, handles[lane]);
    if (d.dims != dims)
      throw LaneError(lane, std::string(opcode_name(in.op)) + "." + std::to_string(dims) +
                                "d reads a " + std::to_string(d.dims) + "D texture");
    check_result_type(x, lane, d);
    int32_t off[3] = {0, 0, 0};
    for (unsigned k = 0; k < dims; ++k) off[k] = static_cast<int32_t>(offsets[k][lane]);
    SamplePlan plan;
    if (in.src_type == Type::S32) {
      int32_t c[3] = {0, 0, 0};
      for (unsigned k = 0; k < dims; ++k) c[k] = static_cast<int32_t>(coords[k][lane]);
      plan = plan_fetch_integer(d, c, off);
    } else {
      float c[3] = {0, 0, 0};
      for (unsigned k = 0; k < dims; ++k) c[k] = f32_of(coords[k][lane]);
      plan = gather ? plan_gather(d, c, off) : plan_fetch(d, c, off);
    }
    double sum[4] = {0, 0, 0, 0};
    for (unsigned t = 0; t < plan.count; ++t) {
      const TexelTap& tap = plan.taps[t];
      double v[4];
      if (tap.border) {
        border_channels(d, v);
      } else {
        uint8_t texel[16];
        const uint64_t addr = d.texel_address(tap.x, tap.y, tap.z);
        try {
          x.env.load(Space::Global, lane, addr, texel, d.texel_bytes());
        } catch (const MemoryFault& f) {
          throw MemoryFault(f.reason, f.space, f.address, f.size, f.lane,
                            "texel (" + std::to_string(tap.x) + ", " + std::to_string(tap.y) +
                                ", " + std::to_string(tap.z) + ") of the texture " +
                                hex_string(handles[lane]) + ": " + f.what());
        }
        texel_channels(d, texel, v);
      }
      if (gather) {
        sum[t] = v[in.tex_component];
      } else {
        for (unsigned ch = 0; ch < 4; ++ch) sum[ch] += tap.weight * v[ch];
      }
    }
    for (unsigned ch = 0; ch < 4; ++ch) result[ch][lane] = result_bits(sum[ch], in.type);
  });
  const Operand& dv = x.op(0);
  for (unsigned ch = 0; ch < 4 && ch < dv.elems.size(); ++ch)
    Dest(x, dv.elems[ch], in.type).scatter(m, ws, result[ch]);
  if (x.has(1)) {  // d|p: the texels are always resident
    LaneValues ones;
    each_lane(m, ws, [&](unsigned lane) { ones[lane] = 1; });
    x.dst(1, Type::Pred).scatter(m, ws, ones);
  }
}

// txq and suq.
void query(const Exec& x) {
  const Instruction& in = x.inst;
  const LaneMask m = x.executed;
  const unsigned ws = x.warp_size();
  LaneValues handles, out;
  x.src(1, Type::U64).gather(m, ws, handles);
  Descriptors descriptors(
      x, in.op == Opcode::Txq ? ImageDesc::Kind::Texture : ImageDesc::Kind::Surface);
  // PTX's sampler enumerations: filter nearest 0, linear 1; address modes
  // wrap 0, mirror 1, clamp_ogl 2, clamp_to_edge 3, clamp_to_border 4.
  auto mode = [](AddressMode a) -> uint64_t {
    switch (a) {
      case AddressMode::Wrap:
        return 0;
      case AddressMode::Mirror:
        return 1;
      case AddressMode::Border:
        return 4;
      default:
        return 3;
    }
  };
  for_lanes(m, [&](unsigned lane) {
    const ImageDesc& d = descriptors.at(lane, handles[lane]);
    switch (in.tex_query) {
      case TexQuery::Width:
        out[lane] = d.width;
        break;
      case TexQuery::Height:
        out[lane] = d.height;
        break;
      case TexQuery::Depth:
        out[lane] = d.depth;
        break;
      case TexQuery::NormalizedCoords:
        out[lane] = d.normalized_coords ? 1 : 0;
        break;
      case TexQuery::FilterMode:
        out[lane] = d.filter == FilterMode::Linear ? 1 : 0;
        break;
      case TexQuery::AddrMode0:
      case TexQuery::AddrMode1:
      case TexQuery::AddrMode2:
        out[lane] = mode(d.address[static_cast<unsigned>(in.tex_query) -
                                   static_cast<unsigned>(TexQuery::AddrMode0)]);
        break;
      default:
        x.unsupported("no such attribute");
    }
  });
  x.dst(0, Type::B32).scatter(m, ws, out);
}

// suld.b and sust.b: x in bytes, y and z in rows.
void surface(const Exec& x) {
  const Instruction& in = x.inst;
  const bool load = in.op == Opcode::Suld;
  const LaneMask m = x.executed;
  const unsigned ws = x.warp_size();
  const unsigned dims = in.geom == TexGeom::D1 ? 1 : in.geom == TexGeom::D2 ? 2 : 3;
  const unsigned elem = type_bits(in.type) / 8, size = elem * in.vec;
  const size_t h = load ? 1 : 0, c = load ? 2 : 1;
  LaneValues handles, coords[4] = {};
  x.src(h, Type::U64).gather(m, ws, handles);
  vector_values(x, x.op(c), Type::S32, m, coords, dims);
  const Operand& data = load ? x.op(0) : x.op(2);
  const unsigned n = in.vec;
  LaneValues values[4] = {};
  if (!load) {
    if (n == 1)
      x.src(2, in.type).gather(m, ws, values[0]);
    else
      vector_values(x, data, in.type, m, values, n);
  }
  Descriptors descriptors(x, ImageDesc::Kind::Surface);
  for_lanes(m, [&](unsigned lane) {
    const ImageDesc& d = descriptors.at(lane, handles[lane]);
    if (d.dims != dims)
      throw LaneError(lane, std::string(opcode_name(in.op)) + ".b." + std::to_string(dims) +
                                "d accesses a " + std::to_string(d.dims) + "D surface");
    const int64_t row = int64_t(d.width) * d.texel_bytes();
    int64_t p[3] = {0, 0, 0};
    for (unsigned k = 0; k < dims; ++k) p[k] = static_cast<int32_t>(coords[k][lane]);
    const int64_t hi[3] = {row - size, int64_t(d.height) - 1, int64_t(d.depth) - 1};
    const bool inside =
        p[0] >= 0 && p[0] <= hi[0] && p[1] >= 0 && p[1] <= hi[1] && p[2] >= 0 && p[2] <= hi[2];
    if (!inside) {
      if (in.surface_clamp == SurfaceClamp::Zero) {
        for (unsigned k = 0; k < n; ++k) values[k][lane] = 0;
        return;
      }
      if (in.surface_clamp == SurfaceClamp::Trap || hi[0] < 0)
        throw LaneError(lane, std::string(opcode_name(in.op)) + ".b.trap: byte " +
                                  std::to_string(p[0]) + " of row " + std::to_string(p[1]) +
                                  (dims > 2 ? " of slice " + std::to_string(p[2]) : "") + " (" +
                                  std::to_string(size) + " bytes) is outside the " +
                                  std::to_string(d.width) + "x" + std::to_string(d.height) + "x" +
                                  std::to_string(d.depth) + " surface of " +
                                  std::to_string(d.texel_bytes()) + "-byte texels");
      for (unsigned k = 0; k < 3; ++k) p[k] = std::clamp<int64_t>(p[k], 0, hi[k]);
      p[0] -= p[0] % size;
    }
    if (p[0] % size != 0)
      throw LaneError(lane, std::string(opcode_name(in.op)) + ".b: byte " + std::to_string(p[0]) +
                                " is not aligned to the " + std::to_string(size) + "-byte access");
    const uint64_t addr =
        d.data + (uint64_t(p[2]) * d.height + uint64_t(p[1])) * d.row_pitch() + uint64_t(p[0]);
    uint8_t bytes[32] = {};
    if (load) {
      x.env.load(Space::Global, lane, addr, bytes, size);
      for (unsigned k = 0; k < n; ++k) {
        uint64_t v = 0;
        std::memcpy(&v, bytes + k * elem, elem);
        values[k][lane] = v;
      }
    } else {
      for (unsigned k = 0; k < n; ++k) std::memcpy(bytes + k * elem, &values[k][lane], elem);
      x.env.store(Space::Global, lane, addr, bytes, size);
    }
  });
  if (!load) return;
  if (n == 1) return x.dst(0, in.type).scatter(m, ws, values[0]);
  for (unsigned k = 0; k < n; ++k) Dest(x, data.elems[k], in.type).scatter(m, ws, values[k]);
}

}  // namespace

void exec_texture(const Exec& x) {
  switch (x.inst.op) {
    case Opcode::Tex:
    case Opcode::Tld4:
      return fetch(x);
    case Opcode::Txq:
    case Opcode::Suq:
      return query(x);
    case Opcode::Suld:
    case Opcode::Sust:
      return surface(x);
    default:
      x.unsupported("not a texture or surface opcode");
  }
}

}  // namespace warptlm::sem
