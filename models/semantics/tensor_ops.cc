// Tensor cores: wmma.load, wmma.store, wmma.mma, mma.sync and ldmatrix
// (docs/tensor-cores.md).
//
// Every one is .sync.aligned: the whole 32-lane warp executes it together,
// so a lane that did not execute (divergence or a false guard) is a
// LaneError, and so is a warp of another width. Fragments are laid out as
// matrix_fragments.h says.
//
// The multiply-accumulate, D = A x B + C, element by element: d[i][j] starts
// from c[i][j] and adds a[i][k] * b[k][j] for k = 0, 1, ... in that order,
// - .f16/.bf16/.tf32 inputs: in binary32, each step one fused multiply-add
//   (the product of two such inputs is exact in binary32, so each step rounds
//   once, to nearest even); an .f16 D is the binary32 sum rounded once to
//   .f16. A NaN result is the canonical NaN. .tf32 inputs use the upper 19
//   bits of their registers (the low 13 bits are ignored).
// - .f64: the same in binary64.
// - .s8/.u8: exact in 64-bit integers, then wrapped to 32 bits, or with
//   .satfinite clamped to the .s32 range.
// The hardware's internal order and rounding are not documented; this is
// the order a scalar loop computes, and what the tests check.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "semantics/address_operand.h"
#include "semantics/families.h"
#include "semantics/float16.h"
#include "semantics/matrix_fragments.h"

namespace warptlm::sem {

namespace {

using u64 = uint64_t;
constexpr unsigned kWarp = 32;

// A fragment element's type as stored: its width and how to read it.
struct ElemType {
  Type type = Type::None;
  bool tf32 = false;
  unsigned bits() const { return tf32 ? 32 : type_bits(type); }
  unsigned bytes() const { return bits() / 8; }
  unsigned per_register() const { return elements_per_register(type); }
  Type register_type() const { return fragment_register_type(type); }
};

void check_warp(const Exec& x) {
  const std::string name = opcode_name(x.inst.op);
  if (x.warp_size() != kWarp)
    x.unsupported("'" + name + "' needs a 32-lane warp (this warp has " +
                  std::to_string(x.warp_size()) + " lanes)");
  const LaneMask missing = full_mask(kWarp) & ~x.executed;
  if (missing) {
    const unsigned lane = static_cast<unsigned>(__builtin_ctzll(missing));
    throw LaneError(lane, "'" + x.inst.text +
                              "' is .sync.aligned: every lane of the warp executes it, but lane " +
                              std::to_string(lane) + " did not (divergence or a false guard)");
  }
}

// The registers of a fragment operand (a Vector), read for all 32 lanes.
class FragmentIn {
 public:
  FragmentIn(const Exec& x, const Operand& vec, ElemType e) : e_(e) {
    if (vec.kind != Operand::Kind::Vector) x.unsupported("a fragment must be a vector {...}");
    vals_.resize(vec.elems.size() * kWarp);
    for (size_t r = 0; r < vec.elems.size(); ++r)
      Source(x, vec.elems[r], e.register_type()).gather(full_mask(kWarp), kWarp, &vals_[r * kWarp]);
  }
  // The raw bits of element j of lane `lane`.
  u64 bits(unsigned lane, unsigned j) const {
    const unsigned per = e_.per_register();
    const u64 reg = vals_[(j / per) * kWarp + lane];
    return per == 1 ? reg : (reg >> ((j % per) * e_.bits())) & low_mask(e_.bits());
  }

 private:
  ElemType e_;
  std::vector<u64> vals_;
};

// A fragment being written: element bits packed into its registers, which
// are written at once by write().
class FragmentOut {
 public:
  FragmentOut(const Exec& x, const Operand& vec, ElemType e) : x_(x), vec_(vec), e_(e) {
    if (vec.kind != Operand::Kind::Vector) x.unsupported("a fragment must be a vector {...}");
    vals_.assign(vec.elems.size() * kWarp, 0);
  }
  void set(unsigned lane, unsigned j, u64 bits) {
    const unsigned per = e_.per_register();
    u64& reg = vals_[(j / per) * kWarp + lane];
    if (per == 1) {
      reg = bits;
    } else {
      const unsigned shift = (j % per) * e_.bits();
      reg = (reg & ~(low_mask(e_.bits()) << shift)) | ((bits & low_mask(e_.bits())) << shift);
    }
  }
  void write() const {
    for (size_t r = 0; r < vec_.elems.size(); ++r)
      Dest(x_, vec_.elems[r], e_.register_type())
          .scatter(full_mask(kWarp), kWarp, &vals_[r * kWarp]);
  }

 private:
  const Exec& x_;
  const Operand& vec_;
  ElemType e_;
  std::vector<u64> vals_;
};

ElemType load_store_type(const MmaInfo& i) { return ElemType{i.a, i.a_tf32}; }
ElemType mma_type(const MmaInfo& i, MatrixFrag f) {
  switch (f) {
    case MatrixFrag::A:
      return {i.a, i.a_tf32};
    case MatrixFrag::B:
      return {i.b, i.a_tf32};
    case MatrixFrag::C:
      return {i.c, false};
    default:
      return {i.d, false};
  }
}

// wmma.load / wmma.store: each lane moves its fragment's elements, one
// access per element in element order, lanes in increasing order. Element
// (row, col) of a .row matrix is at p + (row * stride + col) * size, of a
// .col one at p + (col * stride + row) * size; without a stride operand the
// matrix is contiguous (stride = its columns, or rows for .col).
void wmma_memory(const Exec& x) {
  const MmaInfo& i = x.inst.mma;
  const bool store = x.inst.op == Opcode::WmmaStore;
  const ElemType e = load_store_type(i);
  const MatrixPos dims = matrix_dims(i, i.frag);
  const unsigned per = fragment_elements(i, x.inst.op, i.frag, e.type);
  const size_t addr_op = store ? 0 : 1, frag_op = store ? 1 : 0;
  u64 base[kMaxWarpSize], stride[kMaxWarpSize];
  AddressOperand(x, x.op(addr_op)).gather(full_mask(kWarp), base);
  if (x.has(2)) {
    x.src(2, Type::U32).gather(full_mask(kWarp), kWarp, stride);
  } else {
    for (unsigned lane = 0; lane < kWarp; ++lane) stride[lane] = i.a_row ? dims.col : dims.row;
  }
  const unsigned size = e.bytes();
  auto address = [&](unsigned lane, MatrixPos p) {
    const u64 index =
        i.a_row ? u64(p.row) * stride[lane] + p.col : u64(p.col) * stride[lane] + p.row;
    const u64 a = base[lane] + index * size;
    check_aligned(x, a, size, lane);
    return a;
  };
  if (store) {
    const FragmentIn frag(x, x.op(frag_op), e);
    for (unsigned lane = 0; lane < kWarp; ++lane)
      for (unsigned j = 0; j < per; ++j) {
        const u64 v = frag.bits(lane, j);
        x.env.store(x.inst.space, lane,
                    address(lane, fragment_position(i, x.inst.op, i.frag, lane, j)), &v, size);
      }
    return;
  }
  FragmentOut frag(x, x.op(frag_op), e);
  for (unsigned lane = 0; lane < kWarp; ++lane)
    for (unsigned j = 0; j < per; ++j) {
      u64 v = 0;
      x.env.load(x.inst.space, lane,
                 address(lane, fragment_position(i, x.inst.op, i.frag, lane, j)), &v, size);
      frag.set(lane, j, v);
    }
  frag.write();
}

// A whole matrix, gathered from or scattered to a fragment.
struct Matrix {
  unsigned rows = 0, cols = 0;
  std::vector<double> f;   // float elements (exact for every input type)
  std::vector<int64_t> n;  // integer elements
};

bool is_int(ElemType e) { return !is_float(e.type); }

double float_value(ElemType e, u64 bits) {
  switch (e.type) {
    case Type::F16:
    case Type::BF16:
      return half_to_double(half_format(e.type), static_cast<uint16_t>(bits));
    case Type::F32: {
      const uint32_t b = static_cast<uint32_t>(e.tf32 ? bits & ~u64(0x1fff) : bits);
      float v;
      std::memcpy(&v, &b, 4);
      return v;
    }
    default: {
      double v;
      std::memcpy(&v, &bits, 8);
      return v;
    }
  }
}

int64_t int_value(ElemType e, u64 bits) {
  return is_signed(e.type) ? static_cast<int64_t>(sext(bits, e.bits()))
                           : static_cast<int64_t>(zext(bits, e.bits()));
}

// The matrix a fragment holds; where threads hold an element more than once
// (wmma's .f16 A and B), the lowest lane's copy.
Matrix gather(const Exec& x, MatrixFrag f, size_t op) {
  const MmaInfo& i = x.inst.mma;
  const ElemType e = mma_type(i, f);
  const MatrixPos dims = matrix_dims(i, f);
  Matrix m;
  m.rows = dims.row;
  m.cols = dims.col;
  const size_t count = size_t(m.rows) * m.cols;
  (is_int(e) ? m.n.resize(count) : m.f.resize(count));
  std::vector<bool> seen(count, false);
  const FragmentIn frag(x, x.op(op), e);
  const unsigned per = fragment_elements(i, x.inst.op, f, e.type);
  for (unsigned lane = 0; lane < kWarp; ++lane)
    for (unsigned j = 0; j < per; ++j) {
      const MatrixPos p = fragment_position(i, x.inst.op, f, lane, j);
      const size_t at = size_t(p.row) * m.cols + p.col;
      if (seen[at]) continue;
      seen[at] = true;
      if (is_int(e)) {
        m.n[at] = int_value(e, frag.bits(lane, j));
      } else {
        m.f[at] = float_value(e, frag.bits(lane, j));
      }
    }
  return m;
}

u64 float_bits(ElemType e, double v) {
  if (e.type == Type::F16) return half_from_double(HalfFormat::F16, v, Rounding::Rn);
  if (e.type == Type::F32) {
    const float f = static_cast<float>(v);  // exact: v is a binary32 sum
    if (std::isnan(f)) return 0x7fffffffu;
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
  }
  if (std::isnan(v)) return 0x7fffffffffffffffull;
  u64 b;
  std::memcpy(&b, &v, 8);
  return b;
}

void multiply_accumulate(const Exec& x) {
  const MmaInfo& i = x.inst.mma;
  const Matrix a = gather(x, MatrixFrag::A, 1), b = gather(x, MatrixFrag::B, 2),
               c = gather(x, MatrixFrag::C, 3);
  const ElemType de = mma_type(i, MatrixFrag::D);
  const bool integer = is_int(mma_type(i, MatrixFrag::A));
  std::vector<u64> d(size_t(i.m) * i.n);
  for (unsigned r = 0; r < i.m; ++r)
    for (unsigned col = 0; col < i.n; ++col) {
      const size_t at = size_t(r) * i.n + col;
      if (integer) {
        int64_t acc = c.n[at];
        for (unsigned k = 0; k < i.k; ++k)
          acc += a.n[size_t(r) * i.k + k] * b.n[size_t(k) * i.n + col];
        if (x.inst.satfinite) acc = std::min<int64_t>(std::max<int64_t>(acc, INT32_MIN), INT32_MAX);
        d[at] = static_cast<uint32_t>(acc);
      } else if (de.type == Type::F64) {
        double acc = c.f[at];
        for (unsigned k = 0; k < i.k; ++k)
          acc = std::fma(a.f[size_t(r) * i.k + k], b.f[size_t(k) * i.n + col], acc);
        d[at] = float_bits(de, acc);
      } else {
        float acc = static_cast<float>(c.f[at]);  // exact: C is .f16 or .f32
        for (unsigned k = 0; k < i.k; ++k)
          acc = std::fmaf(static_cast<float>(a.f[size_t(r) * i.k + k]),
                          static_cast<float>(b.f[size_t(k) * i.n + col]), acc);
        d[at] = float_bits(de, acc);
      }
    }
  FragmentOut out(x, x.op(0), de);
  const unsigned per = fragment_elements(i, x.inst.op, MatrixFrag::D, de.type);
  for (unsigned lane = 0; lane < kWarp; ++lane)
    for (unsigned j = 0; j < per; ++j) {
      const MatrixPos p = fragment_position(i, x.inst.op, MatrixFrag::D, lane, j);
      out.set(lane, j, d[size_t(p.row) * i.n + p.col]);
    }
  out.write();
}

// ldmatrix: matrix q (of .x1/.x2/.x4) has its 8 rows of 8 .b16 at the
// addresses lanes 8q..8q+7 give (each 16 bytes, 16-byte aligned); lane t's
// register q gets row t/4, elements 2(t%4) and 2(t%4)+1 (the first in the
// low half), or with .trans column t/4, rows 2(t%4) and 2(t%4)+1.
void ldmatrix(const Exec& x) {
  const MmaInfo& i = x.inst.mma;
  u64 addrs[kMaxWarpSize];
  AddressOperand(x, x.op(1)).gather(full_mask(kWarp), addrs);
  FragmentOut frag(x, x.op(0), ElemType{Type::B16, false});
  for (unsigned q = 0; q < i.count; ++q) {
    uint16_t m[8][8];
    for (unsigned r = 0; r < 8; ++r) {
      const unsigned lane = 8 * q + r;
      check_aligned(x, addrs[lane], 16, lane);
      uint8_t row[16];
      x.env.load(x.inst.space, lane, addrs[lane], row, 16);
      for (unsigned c = 0; c < 8; ++c)
        m[r][c] = static_cast<uint16_t>(row[2 * c] | row[2 * c + 1] << 8);
    }
    for (unsigned t = 0; t < kWarp; ++t)
      for (unsigned h = 0; h < 2; ++h) {
        const unsigned a = t / 4, b = 2 * (t % 4) + h;
        frag.set(t, 2 * q + h, i.trans ? m[b][a] : m[a][b]);
      }
  }
  frag.write();
}

}  // namespace

void exec_tensor(const Exec& x) {
  check_warp(x);
  switch (x.inst.op) {
    case Opcode::WmmaLoad:
    case Opcode::WmmaStore:
      return wmma_memory(x);
    case Opcode::WmmaMma:
    case Opcode::Mma:
      return multiply_accumulate(x);
    case Opcode::Ldmatrix:
      return ldmatrix(x);
    default:
      x.unsupported("not a tensor-core instruction");
  }
}

}  // namespace warptlm::sem
