// Half precision and bfloat16 end to end (tests/data/ptx/half: nvcc's sm_80
// and sm_90 PTX of CUDA code using cuda_fp16.h and cuda_bf16.h): every
// result bit-exact against host references built independently of warptlm's
// half-precision code (GCC's _Float16 conversions for .f16, the
// round-to-nearest-even bit trick on f32 for .bf16, fma rounded to odd on
// the host FPU first), over random bit
// patterns that include zeros, subnormals, infinities and NaNs; then the
// modifiers nvcc does not emit (.ftz, .sat, .xorsign.abs, ex2, tanh,
// .satfinite) on chosen values, and the parser's refusals.
#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "exec_test_util.h"
#include "frontend/finalizer.h"
#include "frontend/ptx_error.h"
#include "thirdparty_util.h"

namespace warptlm {
namespace {

using thirdparty::buffer;
using thirdparty::Rng;
using thirdparty::values;
using u16 = uint16_t;

// ---- host references -------------------------------------------------------

constexpr u16 kNan = 0x7fff;  // the canonical NaN of both formats

double f16_value(u16 h) {
  _Float16 f;
  std::memcpy(&f, &h, 2);
  return double(f);
}
u16 f16_round(double v) {  // GCC's conversion: one rounding to nearest even
  if (std::isnan(v)) return kNan;
  const _Float16 f = static_cast<_Float16>(v);
  u16 h;
  std::memcpy(&h, &f, 2);
  return h;
}
bool f16_nan(u16 h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); }

float bf16_value(u16 h) {
  const uint32_t u = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
u16 bf16_round(float f) {  // f32 -> bf16, round to nearest even on the bits
  if (std::isnan(f)) return kNan;
  uint32_t u;
  std::memcpy(&u, &f, 4);
  u += 0x7fff + ((u >> 16) & 1);
  return u16(u >> 16);
}
bool bf16_nan(u16 h) { return (h & 0x7f80) == 0x7f80 && (h & 0x7f); }

// a * b + c rounded to odd at F's precision: truncated, with the last bit
// set when the truncation was inexact. Rounding that to nearest at two or
// more bits fewer is the correctly rounded fma (Boldo and Melquiond, "When
// double rounding is odd", 2005), which a round-to-nearest F is not: a
// product exactly on a half-precision midpoint plus a tiny c would tie.
template <class F>
F fma_round_to_odd(F a, F b, F c) {
  volatile F va = a, vb = b, vc = c;
  const int saved = std::fegetround();
  std::feclearexcept(FE_INEXACT);
  std::fesetround(FE_TOWARDZERO);
  volatile F r = std::fma(F(va), F(vb), F(vc));
  std::fesetround(saved);
  F out = r;
  if (std::fetestexcept(FE_INEXACT) && std::isfinite(out)) {
    using Bits = std::conditional_t<sizeof(F) == 4, uint32_t, uint64_t>;
    Bits bits;
    std::memcpy(&bits, &out, sizeof bits);
    bits |= 1;
    std::memcpy(&out, &bits, sizeof bits);
  }
  return out;
}

// One format's reference arithmetic: the exact results rounded once.
struct Format {
  const char* name;
  std::function<double(u16)> value;
  std::function<bool(u16)> nan;
  std::function<u16(u16, u16)> add, sub, mul;
  std::function<u16(u16, u16, u16)> fma;
  u16 one;
};

Format f16_format() {
  Format f;
  f.name = "f16";
  f.value = f16_value;
  f.nan = f16_nan;
  // Sums and products of halves are exact in double.
  f.add = [](u16 a, u16 b) { return f16_round(f16_value(a) + f16_value(b)); };
  f.sub = [](u16 a, u16 b) { return f16_round(f16_value(a) - f16_value(b)); };
  f.mul = [](u16 a, u16 b) { return f16_round(f16_value(a) * f16_value(b)); };
  f.fma = [](u16 a, u16 b, u16 c) {
    return f16_round(fma_round_to_odd(f16_value(a), f16_value(b), f16_value(c)));
  };
  f.one = 0x3c00;
  return f;
}

Format bf16_format() {
  Format f;
  f.name = "bf16";
  f.value = [](u16 h) { return double(bf16_value(h)); };
  f.nan = bf16_nan;
  // f32 arithmetic rounded to bf16: f32 has more than 2 * 8 + 2 bits.
  f.add = [](u16 a, u16 b) { return bf16_round(bf16_value(a) + bf16_value(b)); };
  f.sub = [](u16 a, u16 b) { return bf16_round(bf16_value(a) - bf16_value(b)); };
  f.mul = [](u16 a, u16 b) { return bf16_round(bf16_value(a) * bf16_value(b)); };
  f.fma = [](u16 a, u16 b, u16 c) {
    return bf16_round(fma_round_to_odd(bf16_value(a), bf16_value(b), bf16_value(c)));
  };
  f.one = 0x3f80;
  return f;
}

// min/max: NaN loses to a number (both NaN: canonical NaN), or wins with
// .NaN; -0 < +0.
u16 ref_min_max(const Format& f, u16 a, u16 b, bool is_max, bool nan_wins) {
  const bool na = f.nan(a), nb = f.nan(b);
  if (na || nb) return (nan_wins || (na && nb)) ? kNan : (na ? b : a);
  const double p = f.value(a), q = f.value(b);
  if (p == q) return ((a & 0x8000) != 0) != is_max ? a : b;
  return (p < q) != is_max ? a : b;
}

u16 ref_relu(const Format& f, u16 r) { return (!f.nan(r) && (r & 0x8000)) ? 0 : r; }

// Result k of the scalar kernels (half.cu's scalar_ops) for one element.
u16 ref_scalar(const Format& f, unsigned k, u16 x, u16 y, u16 z) {
  const double a = f.value(x), b = f.value(y);
  const bool unordered = std::isnan(a) || std::isnan(b);
  switch (k) {
    case 0:
      return f.add(x, y);
    case 1:
      return f.sub(x, y);
    case 2:
      return f.mul(x, y);
    case 3:
      return f.fma(x, y, z);
    case 4:
      return ref_min_max(f, x, y, false, false);
    case 5:
      return ref_min_max(f, x, y, true, false);
    case 6:
      return x ^ 0x8000;
    case 7:
      return x & 0x7fff;
    case 8:
      return ref_relu(f, f.fma(x, y, z));
    case 9:
      return ref_min_max(f, x, y, false, true);
    case 10:
      return ref_min_max(f, x, y, true, true);
    case 11:
      return a < b ? z : x;
    case 12:
      return (unordered || a >= b) ? y : z;
    default:
      return (!unordered && a != b) ? x : y;
  }
}

constexpr unsigned kOps = 14;

// Random bit patterns, a quarter drawn from special values.
std::vector<u16> patterns(Rng& rng, size_t n, bool bf16) {
  const std::vector<u16> special =
      bf16 ? std::vector<u16>{0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0x7f81,
                              0x0001, 0x807f, 0x3f80, 0xbf80, 0x7f7f, 0x0080}
           : std::vector<u16>{0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7c01,
                              0x0001, 0x83ff, 0x3c00, 0xbc00, 0x7bff, 0x0400};
  std::vector<u16> v(n);
  for (auto& h : v) {
    const uint64_t r = rng.next();
    if ((r & 3) == 0) {
      h = special[(r >> 2) % special.size()];
    } else if ((r & 3) == 1) {
      // Values near 1, where sums and products do not overflow.
      h = u16((bf16 ? 0x3f00 : 0x3800) + ((r >> 8) & 0x1ff)) | u16((r >> 20) & 1 ? 0x8000 : 0);
    } else {
      h = u16(r >> 16);
    }
  }
  return v;
}

const Program& half_program(const std::string& file) {
  static std::map<std::string, std::unique_ptr<Program>> cache;
  auto& p = cache[file];
  if (!p)
    p = std::make_unique<Program>(
        finalize(parse_ptx_file(std::string(WARPTLM_TEST_DATA) + "/ptx/half/" + file)));
  return *p;
}

// Runs an ops kernel on a, b, c (elements of `bytes` each) at warp size ws.
template <class T>
std::vector<T> run_ops(const std::string& file, const std::string& kernel, const std::vector<T>& a,
                       const std::vector<T>& b, const std::vector<T>& c, unsigned ws) {
  const uint32_t n = static_cast<uint32_t>(a.size()), block = 64;
  LaunchSpec l;
  l.grid = {(n + block - 1) / block, 1, 1};
  l.block = {block, 1, 1};
  l.buffers = {buffer("a", a), buffer("b", b), buffer("c", c),
               buffer("out", std::vector<T>(kOps * n, T(0x5555)))};
  for (uint32_t i = 0; i < 4; ++i) l.args.push_back(KernelArg::buffer_arg(i));
  l.args.push_back(KernelArg::scalar(Type::S32, n));
  ExecConfig cfg;
  cfg.warp_size = ws;
  run_functional(half_program(file), kernel, l, cfg);
  return values<T>(l.buffers[3]);
}

std::string hex(unsigned v) {
  char s[16];
  std::snprintf(s, sizeof s, "0x%04x", v);
  return s;
}

class HalfKernels : public ::testing::TestWithParam<const char*> {};

TEST_P(HalfKernels, ScalarOpsMatchTheReferenceBitForBit) {
  for (const bool bf16 : {false, true}) {
    const Format f = bf16 ? bf16_format() : f16_format();
    Rng rng(bf16 ? 7 : 3);
    const size_t n = 1500;
    const auto a = patterns(rng, n, bf16), b = patterns(rng, n, bf16), c = patterns(rng, n, bf16);
    for (const unsigned ws : {32u, 8u}) {
      const auto out = run_ops<u16>(GetParam(), bf16 ? "bf16_ops" : "f16_ops", a, b, c, ws);
      unsigned bad = 0;
      for (unsigned k = 0; k < kOps; ++k)
        for (size_t i = 0; i < n; ++i) {
          const u16 want = ref_scalar(f, k, a[i], b[i], c[i]), got = out[k * n + i];
          if (got != want && bad++ < 8)
            ADD_FAILURE() << f.name << " op " << k << " ws " << ws << " of " << hex(a[i]) << ", "
                          << hex(b[i]) << ", " << hex(c[i]) << ": got " << hex(got) << ", want "
                          << hex(want);
        }
      EXPECT_EQ(bad, 0u) << f.name << " at warp size " << ws;
    }
  }
}

TEST_P(HalfKernels, PairOpsWorkOnEachHalf) {
  for (const bool bf16 : {false, true}) {
    const Format f = bf16 ? bf16_format() : f16_format();
    Rng rng(bf16 ? 11 : 5);
    const size_t n = 1000;
    const auto a16 = patterns(rng, 2 * n, bf16), b16 = patterns(rng, 2 * n, bf16),
               c16 = patterns(rng, 2 * n, bf16);
    std::vector<uint32_t> a(n), b(n), c(n);
    for (size_t i = 0; i < n; ++i) {
      a[i] = a16[2 * i] | uint32_t(a16[2 * i + 1]) << 16;
      b[i] = b16[2 * i] | uint32_t(b16[2 * i + 1]) << 16;
      c[i] = c16[2 * i] | uint32_t(c16[2 * i + 1]) << 16;
    }
    const auto out = run_ops<uint32_t>(GetParam(), bf16 ? "bf16x2_ops" : "f16x2_ops", a, b, c, 32);
    unsigned bad = 0;
    for (unsigned k = 0; k < kOps; ++k)
      for (size_t i = 0; i < n; ++i) {
        auto half = [](uint32_t v, int e) { return u16(v >> (16 * e)); };
        uint32_t want = 0;
        if (k <= 10) {
          for (int e = 0; e < 2; ++e)
            want |= uint32_t(ref_scalar(f, k, half(a[i], e), half(b[i], e), half(c[i], e)))
                    << (16 * e);
        } else {
          bool all = true;
          for (int e = 0; e < 2; ++e) {
            const double p = f.value(half(a[i], e)), q = f.value(half(b[i], e));
            const bool unordered = std::isnan(p) || std::isnan(q);
            const bool t = k == 11   ? p < q
                           : k == 12 ? (unordered || p >= q)
                                     : (!unordered && p != q);
            if (k == 11) want |= uint32_t(t ? f.one : 0) << (16 * e);
            all = all && t;
          }
          if (k == 12) want = all ? b[i] : c[i];
          if (k == 13) want = all ? a[i] : b[i];
        }
        const uint32_t got = out[k * n + i];
        if (got != want && bad++ < 8)
          ADD_FAILURE() << f.name << "x2 op " << k << " of " << std::hex << a[i] << ", " << b[i]
                        << ", " << c[i] << ": got " << got << ", want " << want;
      }
    EXPECT_EQ(bad, 0u) << f.name << "x2";
  }
}

// Directed f32 -> f16 rounding from the nearest: one step toward the mode
// when the nearest overshoots.
u16 f16_directed(float p, int mode /* 0 rz, -1 rd, +1 ru */) {
  if (std::isnan(p)) return kNan;
  u16 r = f16_round(p);
  const double v = f16_value(r);
  const bool neg = r & 0x8000;
  // On the bits, magnitude + 1 is one step away from zero, - 1 toward it.
  if (mode == 0 && std::fabs(v) > std::fabs(double(p))) r = u16(r - 1);
  if (mode == -1 && v > p) r = v == 0 ? 0x8001 : neg ? u16(r + 1) : u16(r - 1);
  if (mode == 1 && v < p) r = v == 0 ? 0x0001 : neg ? u16(r - 1) : u16(r + 1);
  return r;
}

// An integer rounded to nearest even at 8 significant bits (bf16).
u16 bf16_from_int(int64_t v) {
  const bool neg = v < 0;
  uint64_t m = neg ? uint64_t(0) - uint64_t(v) : uint64_t(v);
  if (m == 0) return 0;
  int e = 63 - __builtin_clzll(m);  // m in [2^e, 2^(e+1))
  if (e > 7) {
    const int drop = e - 7;
    const uint64_t rest = m & ((uint64_t(1) << drop) - 1), half = uint64_t(1) << (drop - 1);
    m >>= drop;
    if (rest > half || (rest == half && (m & 1))) ++m;
    if (m == 256) {
      m = 128;
      ++e;
    }
  }
  const double value = std::ldexp(double(m), e > 7 ? e - 7 : 0);
  return bf16_round(float(neg ? -value : value));  // exact: 8 bits
}

TEST_P(HalfKernels, ConversionsRoundAsTheirModesSay) {
  Rng rng(19);
  const size_t n = 1200;
  std::vector<float> x(n), y(n);
  std::vector<long long> v(n);
  for (size_t i = 0; i < n; ++i) {
    uint32_t bx = uint32_t(rng.next()), by = uint32_t(rng.next());
    if (i % 3 == 0) bx = (bx & 0x807fffffu) | ((0x66u + (bx >> 24) % 41) << 23);  // f16's range
    std::memcpy(&x[i], &bx, 4);
    std::memcpy(&y[i], &by, 4);
    const uint64_t r = rng.next();
    v[i] = i % 4 == 0   ? int64_t(r)
           : i % 4 == 1 ? int64_t(r >> (r % 64))
                        : int64_t(r % 140000) - 70000;
  }
  x[0] = 65520.f;  // rounds to infinity at .rn, to 65504 at .rz
  x[1] = -0x1p-25f;
  v[0] = (int64_t(1) << 62) + (int64_t(1) << 54) + 1;  // just above a bf16 midpoint
  const uint32_t block = 64;
  LaunchSpec l;
  l.grid = {uint32_t((n + block - 1) / block), 1, 1};
  l.block = {block, 1, 1};
  l.buffers = {buffer("x", x), buffer("y", y), buffer("v", v),
               buffer("h", std::vector<u16>(12 * n)), buffer("f", std::vector<float>(3 * n))};
  for (uint32_t i = 0; i < 5; ++i) l.args.push_back(KernelArg::buffer_arg(i));
  l.args.push_back(KernelArg::scalar(Type::S32, uint32_t(n)));
  run_functional(half_program(GetParam()), "conversions", l, ExecConfig{});
  const auto h = values<u16>(l.buffers[3]);
  const auto f = values<float>(l.buffers[4]);
  unsigned bad = 0;
  auto check = [&](unsigned k, size_t i, uint32_t got, uint32_t want) {
    if (got != want && bad++ < 8)
      ADD_FAILURE() << "conversion " << k << " of x=" << x[i] << " y=" << y[i] << " v=" << v[i]
                    << ": got " << std::hex << got << ", want " << want;
  };
  for (size_t i = 0; i < n; ++i) {
    uint32_t bits_rz;
    std::memcpy(&bits_rz, &x[i], 4);
    const u16 want[12] = {f16_round(x[i]),         f16_directed(x[i], 0),
                          f16_directed(x[i], -1),  f16_directed(x[i], 1),
                          bf16_round(x[i]),        std::isnan(x[i]) ? kNan : u16(bits_rz >> 16),
                          f16_round(double(v[i])), bf16_from_int(v[i]),
                          f16_round(x[i]),         f16_round(y[i]),
                          bf16_round(x[i]),        bf16_round(y[i])};
    for (unsigned k = 0; k < 12; ++k) check(k, i, h[k * n + i], want[k]);
    auto fbits = [](float g) {
      uint32_t u;
      std::memcpy(&u, &g, 4);
      return std::isnan(g) ? 0x7fffffffu : u;
    };
    check(100, i, fbits(f[i]), fbits(float(f16_value(f16_round(x[i])))));
    check(101, i, fbits(f[n + i]), fbits(bf16_value(bf16_round(x[i]))));
    check(102, i, fbits(f[2 * n + i]),
          fbits(float(f16_value(f16_round(x[i]))) + float(f16_value(f16_round(y[i])))));
  }
  EXPECT_EQ(bad, 0u);
}

// atomicAdd: sm_80 and sm_90 both use atom.add.noftz for .f16 and .f16x2;
// sm_80 builds the bfloat16 adds as atom.cas loops around fma.rn.bf16.
TEST_P(HalfKernels, AtomicAddsFromEveryThreadSumExactly) {
  for (const uint32_t threads : {96u, 256u}) {
    LaunchSpec l;
    l.grid = {2, 1, 1};
    l.block = {threads / 2, 1, 1};
    l.buffers = {buffer("h", std::vector<u16>{0}), buffer("h2", std::vector<uint32_t>{0}),
                 buffer("b", std::vector<u16>{0}), buffer("b2", std::vector<uint32_t>{0})};
    for (uint32_t i = 0; i < 4; ++i) l.args.push_back(KernelArg::buffer_arg(i));
    run_functional(half_program(GetParam()), "atomics", l, ExecConfig{});
    const double n = threads;
    EXPECT_EQ(values<u16>(l.buffers[0])[0], f16_round(n));
    EXPECT_EQ(values<uint32_t>(l.buffers[1])[0], uint32_t(f16_round(n)) | uint32_t(f16_round(n / 2))
                                                                              << 16);
    EXPECT_EQ(values<u16>(l.buffers[2])[0], bf16_round(float(n)));
    EXPECT_EQ(values<uint32_t>(l.buffers[3])[0],
              uint32_t(bf16_round(float(n))) | uint32_t(bf16_round(float(2 * n))) << 16);
  }
}

INSTANTIATE_TEST_SUITE_P(Nvcc, HalfKernels, ::testing::Values("half.sm80.ptx", "half.sm90.ptx"),
                         [](const auto& info) { return std::string(info.param).substr(5, 4); });

// ---- single instructions on chosen values ----------------------------------

// Runs `inst` (with %d, %a, %b, %c: .b32 registers %rd..., or .b16 ones
// %hd... when `wide` is false; %ha.. and %hd also by name) on one thread
// with a, b, c (their low halves in %ha, %hb, %hc) and returns d.
uint32_t run_one(const std::string& inst, bool wide, uint32_t a, uint32_t b = 0, uint32_t c = 0) {
  const std::string r = wide ? "%r" : "%h";
  // A result in %hd (written by name, or %d of a 16-bit instruction).
  const bool half_result = !wide || inst.find("%hd") != std::string::npos;
  std::string body = inst;
  for (const char* name : {"d", "a", "b", "c"})
    for (size_t at; (at = body.find(std::string("%") + name)) != std::string::npos;)
      body.replace(at, 2, r + name);
  const std::string ptx = testing::ptx_module(R"(
.visible .entry one(.param .u64 out, .param .u32 a, .param .u32 b, .param .u32 c)
{
  .reg .b32 %ra, %rb, %rc, %rd;
  .reg .b16 %ha, %hb, %hc, %hd;
  .reg .b64 %p;
  ld.param.u64 %p, [out];
  ld.param.u32 %ra, [a];
  ld.param.u32 %rb, [b];
  ld.param.u32 %rc, [c];
  cvt.u16.u32 %ha, %ra;
  cvt.u16.u32 %hb, %rb;
  cvt.u16.u32 %hc, %rc;
  mov.b32 %rd, 0;
  mov.b16 %hd, 0;
  )" + body + R"(;
  )" + (half_result ? "cvt.u32.u16 %rd, %hd;" : "") +
                                              R"(
  st.global.u32 [%p], %rd;
  ret;
}
)");
  const Program p = finalize(parse_ptx(ptx, "one.ptx"));
  LaunchSpec l;
  l.buffers = {buffer("out", std::vector<uint32_t>{0xdeadbeef})};
  l.args = {KernelArg::buffer_arg(0), KernelArg::scalar(Type::U32, a),
            KernelArg::scalar(Type::U32, b), KernelArg::scalar(Type::U32, c)};
  run_functional(p, "one", l, ExecConfig{});
  return values<uint32_t>(l.buffers[0])[0];
}

TEST(HalfInstructions, FtzFlushesSubnormalInputsAndResults) {
  // 0x0200 is a subnormal f16 (2^-15); 0x0400 the smallest normal.
  EXPECT_EQ(run_one("add.f16 %d, %a, %b", false, 0x0200, 0x0200), 0x0400u);
  EXPECT_EQ(run_one("add.ftz.f16 %d, %a, %b", false, 0x0200, 0x0200), 0x0000u);
  EXPECT_EQ(run_one("mul.f16 %d, %a, %b", false, 0x0400, 0x3800), 0x0200u);  // 2^-14 * 0.5
  EXPECT_EQ(run_one("mul.ftz.f16 %d, %a, %b", false, 0x0400, 0xb800), 0x8000u);
  EXPECT_EQ(run_one("neg.ftz.f16 %d, %a", false, 0x0001), 0x8000u);
  EXPECT_EQ(run_one("min.ftz.f16 %d, %a, %b", false, 0x8001, 0x0000), 0x8000u);
  // bf16 keeps subnormals (it has no .ftz).
  EXPECT_EQ(run_one("add.bf16 %d, %a, %b", false, 0x0001, 0x0001), 0x0002u);
}

TEST(HalfInstructions, SatClampsToZeroOneAndNanToZero) {
  EXPECT_EQ(run_one("add.sat.f16 %d, %a, %b", false, 0x3c00, 0x3c00), 0x3c00u);  // 2 -> 1
  EXPECT_EQ(run_one("sub.sat.f16 %d, %a, %b", false, 0x3800, 0x3c00), 0x0000u);  // -0.5 -> 0
  EXPECT_EQ(run_one("mul.sat.f16 %d, %a, %b", false, 0x7c00, 0x0000), 0x0000u);  // NaN -> 0
  EXPECT_EQ(run_one("fma.rn.sat.f16x2 %d, %a, %b, %c", true, 0x3c003800, 0x3c003c00, 0xbc000000),
            0x00003800u);
  EXPECT_EQ(run_one("add.f16 %d, %a, %b", false, 0x7c00, 0xfc00), 0x7fffu);  // inf - inf
}

TEST(HalfInstructions, XorsignAbsAndRelu) {
  // max(|-2|, |1|) = 2 with the sign of (-) xor (+) = negative.
  EXPECT_EQ(run_one("max.xorsign.abs.f16 %d, %a, %b", false, 0xc000, 0x3c00), 0xc000u);
  EXPECT_EQ(run_one("min.xorsign.abs.bf16 %d, %a, %b", false, 0xc000, 0xbf80), 0x3f80u);
  EXPECT_EQ(run_one("fma.rn.relu.bf16 %d, %a, %b, %c", false, 0xbf80, 0x3f80, 0x0000), 0x0000u);
  EXPECT_EQ(run_one("fma.rn.relu.f16 %d, %a, %b, %c", false, 0x7c00, 0x0000, 0x0000), 0x7fffu);
}

TEST(HalfInstructions, Ex2AndTanhAreCorrectlyRoundedFromDouble) {
  // ex2(1.5) = 2.828..: f16 0x41a8 (2.828125), bf16 0x4035 (2.828125).
  EXPECT_EQ(run_one("ex2.approx.f16 %d, %a", false, 0x3e00), 0x41a8u);
  EXPECT_EQ(run_one("ex2.approx.ftz.bf16x2 %d, %a", true, 0x3fc03fc0), 0x40354035u);
  EXPECT_EQ(run_one("ex2.approx.ftz.bf16 %d, %a", false, 0xff80), 0x0000u);  // 2^-inf
  // tanh(0.5) = 0.4621..: f16 0x3765, f32 0x3eec9a9f.
  EXPECT_EQ(run_one("tanh.approx.f16 %d, %a", false, 0x3800), 0x3765u);
  EXPECT_EQ(run_one("tanh.approx.f32 %d, %a", true, 0x3f000000), 0x3eec9a9fu);
  EXPECT_EQ(run_one("tanh.approx.bf16 %d, %a", false, 0xff80), 0xbf80u);  // tanh(-inf) = -1
}

TEST(HalfInstructions, ComparisonsAndSetResults) {
  // setp.lt.f16x2 p|q: p from the lower halves, q from the upper.
  EXPECT_EQ(run_one(R"(.reg .pred %p1, %p2;
  setp.lt.f16x2 %p1|%p2, %a, %b;
  selp.u32 %d, 1, 0, %p1;
  selp.u32 %rc, 2, 0, %p2;
  or.b32 %d, %d, %rc)",
                    true, 0x3c00bc00, 0x00000000),
            1u);  // -1 < 0 (low), 1 < 0 false (high)
  EXPECT_EQ(run_one("set.lt.f16x2.f16x2 %d, %a, %b", true, 0x3c00bc00, 0), 0x00003c00u);
  EXPECT_EQ(run_one("set.lt.u32.bf16x2 %d, %a, %b", true, 0xbf803f80, 0), 0xffff0000u);
  EXPECT_EQ(run_one("set.gt.f16.f32 %hd, %a, %b", true, 0x40000000, 0x3f800000), 0x3c00u);
  EXPECT_EQ(run_one("set.gt.bf16.f32 %hd, %a, %b", true, 0x40000000, 0x3f800000), 0x3f80u);
  EXPECT_EQ(run_one("set.nan.u16.f16 %d, %a, %b", false, 0x7e00, 0), 0xffffu);
  EXPECT_EQ(run_one(R"(.reg .pred %p1;
  setp.lt.ftz.f16 %p1, %a, %b;
  selp.u32 %d, 1, 0, %p1)",
                    true, 0x8001, 0x0000),
            0u);  // -subnormal flushes to -0, not < +0
}

TEST(HalfInstructions, AtomicAddKeepsSubnormalsAndRoundsEachHalf) {
  const char* add = R"(st.global.u32 [%p], %b;
  atom.global.add.noftz.f16x2 %rc, [%p], %a;
  ld.global.u32 %d, [%p])";
  EXPECT_EQ(run_one(add, true, 0x00010001, 0x00010001), 0x00020002u);
  EXPECT_EQ(run_one(add, true, 0x3c003c00, 0x40000001), 0x42003c00u);  // 1 + 2^-24 -> 1
  EXPECT_EQ(run_one(R"(st.global.u32 [%p], %b;
  atom.global.add.noftz.bf16 %hc, [%p], %ha;
  ld.global.u32 %d, [%p])",
                    true, 0x3f80, 0x12343f80),
            0x12344000u);  // 1 + 1 in the low half; the upper half untouched
}

TEST(HalfInstructions, SatfiniteAndReluConversions) {
  EXPECT_EQ(run_one("cvt.rn.satfinite.f16.f32 %hd, %a", true, 0x47800000), 0x7bffu);  // 65536
  EXPECT_EQ(run_one("cvt.rn.f16.f32 %hd, %a", true, 0x47800000), 0x7c00u);
  EXPECT_EQ(run_one("cvt.rn.satfinite.bf16.f32 %hd, %a", true, 0xff800000), 0xff7fu);  // -inf
  EXPECT_EQ(run_one("cvt.rn.relu.bf16.f32 %hd, %a", true, 0xbf800000), 0x0000u);
  EXPECT_EQ(run_one("cvt.rz.relu.satfinite.bf16x2.f32 %d, %a, %b", true, 0xc0000000, 0x7f800000),
            0x00007f7fu);
  EXPECT_EQ(run_one("cvt.f32.bf16 %d, %ha", true, 0xc0a0), 0xc0a00000u);
  EXPECT_EQ(run_one("cvt.rn.f16.bf16 %hd, %ha", true, 0x4780), 0x7c00u);  // 65536 overflows f16
  EXPECT_EQ(run_one("cvt.rn.bf16.f16 %hd, %ha", true, 0x3c01), 0x3f80u);
}

// ---- the parser -------------------------------------------------------------

std::string parse_error(const std::string& inst) {
  try {
    parse_ptx(testing::ptx_module(R"(
.visible .entry k()
{
  .reg .b32 %r<4>;
  .reg .b16 %h<4>;
  .reg .pred %p<3>;
  )" + inst + R"(;
  ret;
}
)"),
              "bad.ptx");
  } catch (const PtxError& e) {
    return e.what();
  }
  return "";
}

TEST(HalfParser, RefusesWhatTheIsaDoesNotDefine) {
  EXPECT_NE(parse_error("add.rz.f16 %h1, %h2, %h3").find("rounds only with .rn"),
            std::string::npos);
  EXPECT_NE(parse_error("add.ftz.bf16 %h1, %h2, %h3").find("the .bf16 forms have no .ftz"),
            std::string::npos);
  EXPECT_NE(parse_error("fma.f16x2 %r1, %r2, %r3, %r1").find("needs .rn"), std::string::npos);
  EXPECT_NE(parse_error("fma.rn.sat.relu.f16 %h1, %h2, %h3, %h1").find(".sat or .relu"),
            std::string::npos);
  EXPECT_NE(parse_error("add.f16 %h1, %h2, 0x3c00").find("no half-precision literal"),
            std::string::npos);
  EXPECT_NE(parse_error("setp.lt.f16x2 %p1, %r1, %r2").find("p|q"), std::string::npos);
  EXPECT_NE(parse_error("ex2.approx.bf16 %h1, %h2").find("needs .ftz"), std::string::npos);
  EXPECT_NE(parse_error("mad.rn.f16 %h1, %h2, %h3, %h1").find("does not accept type '.f16'"),
            std::string::npos);
  EXPECT_NE(parse_error("set.lt.f16x2.f32 %r1, %r2, %r3").find("not a form of set"),
            std::string::npos);
  EXPECT_NE(parse_error("cvt.rm.f16x2.f32 %r1, %r2, %r3").find(".rn or .rz only"),
            std::string::npos);
  EXPECT_NE(parse_error("cvt.relu.f32.f16 %r1, %h2").find("converts .f32 to .f16 or .bf16"),
            std::string::npos);
  EXPECT_NE(parse_error("cvt.rn.f16x2.f16 %r1, %h2, %h3").find("a pair is made from .f32"),
            std::string::npos);
  EXPECT_NE(parse_error("setp.lt.ftz.bf16 %p1, %h1, %h2").find("requires .f32, .f16 or .f16x2"),
            std::string::npos);
  EXPECT_NE(parse_error("min.xorsign.f16 %h1, %h2, %h3").find(".xorsign and .abs together"),
            std::string::npos);
  EXPECT_NE(parse_error("fma.rn.oob.f16 %h1, %h2, %h3, %h1").find("sm_90"), std::string::npos);
  EXPECT_NE(parse_error("add.tf32 %r1, %r2, %r3").find(".tf32 is not supported"),
            std::string::npos);
  EXPECT_NE(parse_error(".reg .b64 %a;\n  atom.global.add.f16 %h1, [%a], %h2")
                .find("is written atom.add.noftz.f16"),
            std::string::npos);
  EXPECT_NE(parse_error(".reg .b64 %a;\n  atom.global.add.noftz.f32 %r1, [%a], %r2")
                .find("'.noftz' belongs to"),
            std::string::npos);
  EXPECT_EQ(parse_error("min.NaN.xorsign.abs.bf16x2 %r1, %r2, %r3"), "");
}

}  // namespace
}  // namespace warptlm
