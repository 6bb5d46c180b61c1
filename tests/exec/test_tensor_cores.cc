// Tensor cores end to end (tests/data/ptx/tensor: nvcc's sm_80 PTX of the
// WMMA API on every fragment type, and of mma.sync / ldmatrix through inline
// PTX with the PTX ISA's fragment layouts): GEMMs on small integers, whose
// products and sums are exact in every precision, against a double-precision
// host product; the documented accumulation order and rounding on values
// where order matters; .tf32's ignored low bits; .satfinite; the
// .sync.aligned check; and the parser's refusals.
#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "common/texture_launches.h"
#include "exec/functional_executor.h"
#include "exec/prepared_program.h"
#include "frontend/ptx_error.h"
#include "frontend/ptx_parser.h"

namespace warptlm {
namespace {

using namespace warptlm::testing;

const std::string kTensorPtx = std::string(WARPTLM_TEST_DATA) + "/ptx/tensor/tensor.sm80.ptx";

const Program& tensor_program() {
  static const Module m = parse_ptx_file(kTensorPtx);
  static const Program p = prepare_program(m, "ipdom");
  return p;
}

uint16_t f16(float v) {
  const _Float16 h = static_cast<_Float16>(v);
  uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}
float from_f16(uint16_t b) {
  _Float16 h;
  std::memcpy(&h, &b, 2);
  return float(h);
}
uint16_t bf16(float v) {  // exact for the small integers used here
  uint32_t u;
  std::memcpy(&u, &v, 4);
  return uint16_t(u >> 16);
}

// Deterministic small integers in [lo, hi].
std::vector<int> ints(size_t n, int lo, int hi, uint32_t seed) {
  std::vector<int> v(n);
  uint64_t s = seed * 0x9e3779b97f4a7c15ull + 1;
  for (int& x : v) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    x = lo + int((s >> 33) % uint64_t(hi - lo + 1));
  }
  return v;
}

// A (M x K) and B (K x N) in the layouts a kernel reads, as doubles in
// row-major order for the reference.
struct Gemm {
  int M, N, K;
  bool a_row, b_row;
  std::vector<int> a, b, c;  // a[m][k], b[k][n], c[m][n], row-major
  double ref(int m, int n, double scale) const {
    double s = c[size_t(m) * N + n];
    for (int k = 0; k < K; ++k) s += double(a[size_t(m) * K + k]) * b[size_t(k) * N + n];
    return s * scale;
  }
  // The element order of A and B in memory.
  template <class T, class Conv>
  std::vector<T> a_mem(Conv conv) const {
    std::vector<T> v(size_t(M) * K);
    for (int m = 0; m < M; ++m)
      for (int k = 0; k < K; ++k)
        v[a_row ? size_t(m) * K + k : size_t(k) * M + m] = conv(a[size_t(m) * K + k]);
    return v;
  }
  template <class T, class Conv>
  std::vector<T> b_mem(Conv conv) const {
    std::vector<T> v(size_t(K) * N);
    for (int k = 0; k < K; ++k)
      for (int n = 0; n < N; ++n)
        v[b_row ? size_t(k) * N + n : size_t(n) * K + k] = conv(b[size_t(k) * N + n]);
    return v;
  }
};

Gemm make_gemm(int M, int N, int K, bool a_row, bool b_row, int lo, int hi, uint32_t seed) {
  Gemm g{M, N, K, a_row, b_row, {}, {}, {}};
  g.a = ints(size_t(M) * K, lo, hi, seed);
  g.b = ints(size_t(K) * N, lo, hi, seed + 1);
  g.c = ints(size_t(M) * N, lo * 4, hi * 4, seed + 2);
  return g;
}

// Runs a wmma_gemm kernel: one warp per tm x tn tile.
template <class In, class Acc, class Conv, class AccConv>
std::vector<Acc> run_wmma(const std::string& kernel, const Gemm& g, int tm, int tn, Conv in_conv,
                          AccConv acc_conv, Type scale_type, uint64_t scale_bits) {
  LaunchSpec l;
  l.grid = {1, uint32_t(g.M / tm), 1};
  l.block = {uint32_t(32 * (g.N / tn)), 1, 1};
  std::vector<Acc> c(g.c.size());
  for (size_t i = 0; i < c.size(); ++i) c[i] = acc_conv(g.c[i]);
  l.buffers = {typed_buffer("a", g.template a_mem<In>(in_conv)),
               typed_buffer("b", g.template b_mem<In>(in_conv)), typed_buffer("c", c),
               typed_buffer("d", std::vector<Acc>(c.size()))};
  for (uint32_t i = 0; i < 4; ++i) l.args.push_back(KernelArg::buffer_arg(i));
  for (int v : {g.M, g.N, g.K}) l.args.push_back(KernelArg::scalar(Type::S32, uint32_t(v)));
  l.args.push_back(KernelArg::scalar(scale_type, scale_bits));
  run_functional(tensor_program(), kernel, l, ExecConfig{});
  return typed_values<Acc>(l.buffers[3]);
}

uint64_t fbits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
uint64_t dbits(double d) {
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}

template <class Acc, class Value>
void expect_gemm(const Gemm& g, const std::vector<Acc>& d, double scale, Value value) {
  for (int m = 0; m < g.M; ++m)
    for (int n = 0; n < g.N; ++n)
      ASSERT_EQ(double(value(d[size_t(m) * g.N + n])), g.ref(m, n, scale))
          << "D[" << m << "][" << n << "]";
}

TEST(TensorCores, WmmaHalfWithFloatAccumulatorsMultipliesExactly) {
  const Gemm g = make_gemm(32, 48, 48, true, false, -8, 8, 1);
  const auto d = run_wmma<uint16_t, float>(
      "wmma_f16_f32", g, 16, 16, [](int v) { return f16(float(v)); },
      [](int v) { return float(v); }, Type::F32, fbits(2.0f));
  expect_gemm(g, d, 2.0, [](float v) { return v; });
}

TEST(TensorCores, WmmaHalfAccumulatorsOnTheTallAndWideShapes) {
  // m32n8k16, A column-major, B row-major, C and D .f16: sums stay below
  // 2048, where .f16 holds every integer.
  const Gemm tall = make_gemm(64, 16, 32, false, true, -4, 4, 2);
  const auto d = run_wmma<uint16_t, uint16_t>(
      "wmma_f16_f16_m32n8", tall, 32, 8, [](int v) { return f16(float(v)); },
      [](int v) { return f16(float(v)); }, Type::B16, f16(3.0f));
  expect_gemm(tall, d, 3.0, from_f16);
  // m8n32k16, both row-major, .f32 accumulators.
  const Gemm wide = make_gemm(16, 64, 32, true, true, -8, 8, 3);
  const auto w = run_wmma<uint16_t, float>(
      "wmma_f16_f32_m8n32", wide, 8, 32, [](int v) { return f16(float(v)); },
      [](int v) { return float(v); }, Type::F32, fbits(1.0f));
  expect_gemm(wide, w, 1.0, [](float v) { return v; });
}

TEST(TensorCores, WmmaBfloat16Tf32IntegerAndDoubleFragments) {
  const Gemm gb = make_gemm(32, 32, 32, false, false, -8, 8, 4);
  expect_gemm(gb,
              run_wmma<uint16_t, float>(
                  "wmma_bf16", gb, 16, 16, [](int v) { return bf16(float(v)); },
                  [](int v) { return float(v); }, Type::F32, fbits(0.5f)),
              0.5, [](float v) { return v; });
  const Gemm gt = make_gemm(16, 32, 24, true, false, -100, 100, 5);
  expect_gemm(gt,
              run_wmma<float, float>(
                  "wmma_tf32", gt, 16, 16, [](int v) { return float(v); },
                  [](int v) { return float(v); }, Type::F32, fbits(1.0f)),
              1.0, [](float v) { return v; });
  const Gemm gs = make_gemm(32, 16, 64, true, false, -128, 127, 6);
  expect_gemm(gs,
              run_wmma<int8_t, int32_t>(
                  "wmma_s8", gs, 16, 16, [](int v) { return int8_t(v); }, [](int v) { return v; },
                  Type::S32, 3),
              3.0, [](int32_t v) { return v; });
  const Gemm gu = make_gemm(16, 32, 32, true, true, 0, 255, 7);
  expect_gemm(gu,
              run_wmma<uint8_t, int32_t>(
                  "wmma_u8", gu, 8, 32, [](int v) { return uint8_t(v); }, [](int v) { return v; },
                  Type::S32, 1),
              1.0, [](int32_t v) { return v; });
  const Gemm gd = make_gemm(16, 16, 12, true, false, -1000, 1000, 8);
  expect_gemm(gd,
              run_wmma<double, double>(
                  "wmma_f64", gd, 8, 8, [](int v) { return double(v); },
                  [](int v) { return double(v); }, Type::F64, dbits(-1.5)),
              -1.5, [](double v) { return v; });
}

TEST(TensorCores, AccumulationRunsInKOrderInBinary32WithOneRoundingPerStep) {
  // d = c + a0*b0 + a1*b1 with c = 1, a0*b0 = 2^24 and a1*b1 = 1: each step
  // rounds to nearest even in binary32, so both ones are lost (2^24 + 1 is
  // a tie that rounds to 2^24). Any other order keeps one or both.
  Gemm g = make_gemm(16, 16, 16, true, false, 0, 0, 9);
  g.a[0] = 4096;
  g.a[1] = 1;
  g.b[0] = 4096;    // b[0][0]
  g.b[16 * 1] = 1;  // b[1][0]
  g.c[0] = 1;
  const auto d = run_wmma<uint16_t, float>(
      "wmma_f16_f32", g, 16, 16, [](int v) { return f16(float(v)); },
      [](int v) { return float(v); }, Type::F32, fbits(1.0f));
  EXPECT_EQ(d[0], 16777216.0f);
  // Random .f16 values: bit for bit the documented fmaf chain.
  Gemm r = make_gemm(16, 16, 32, true, false, -1000, 1000, 10);
  std::vector<uint16_t> ah(r.a.size()), bh(r.b.size());
  const auto half_of = [](int v) { return f16(float(v) / 997.0f); };
  const auto dr = run_wmma<uint16_t, float>(
      "wmma_f16_f32", r, 16, 16, half_of, [](int v) { return float(v) / 13.0f; }, Type::F32,
      fbits(1.0f));
  for (int m = 0; m < 16; ++m)
    for (int n = 0; n < 16; ++n) {
      float acc = float(r.c[size_t(m) * 16 + n]) / 13.0f;
      for (int k = 0; k < 32; ++k)
        acc = std::fmaf(from_f16(half_of(r.a[size_t(m) * 32 + k])),
                        from_f16(half_of(r.b[size_t(k) * 16 + n])), acc);
      ASSERT_EQ(fbits(dr[size_t(m) * 16 + n]), fbits(acc)) << "D[" << m << "][" << n << "]";
    }
}

TEST(TensorCores, Tf32IgnoresTheLow13BitsOfItsInputs) {
  Gemm g = make_gemm(16, 16, 8, true, false, 1, 1, 11);
  std::fill(g.c.begin(), g.c.end(), 0);
  // A's elements are 1 + 2^-20, which .tf32 (10 fraction bits) reads as 1.
  const auto d = run_wmma<float, float>(
      "wmma_tf32", g, 16, 16, [](int v) { return float(v) + std::ldexp(1.0f, -20); },
      [](int v) { return float(v); }, Type::F32, fbits(1.0f));
  for (float v : d) ASSERT_EQ(v, 8.0f);
}

// An mma kernel: a (M x K), b (K x N), c (M x N), all row-major; d out.
template <class In, class Acc>
std::vector<Acc> run_mma(const std::string& kernel, const std::vector<In>& a,
                         const std::vector<In>& b, const std::vector<Acc>& c) {
  LaunchSpec l;
  l.grid = {1, 1, 1};
  l.block = {32, 1, 1};
  l.buffers = {typed_buffer("a", a), typed_buffer("b", b), typed_buffer("c", c),
               typed_buffer("d", std::vector<Acc>(c.size()))};
  for (uint32_t i = 0; i < 4; ++i) l.args.push_back(KernelArg::buffer_arg(i));
  run_functional(tensor_program(), kernel, l, ExecConfig{});
  return typed_values<Acc>(l.buffers[3]);
}

template <class In, class Acc, class Conv>
void expect_mma(const std::string& kernel, int M, int N, int K, Conv conv, int lo, int hi,
                uint32_t seed) {
  SCOPED_TRACE(kernel);
  const Gemm g = make_gemm(M, N, K, true, true, lo, hi, seed);
  std::vector<In> a, b;
  for (int v : g.a) a.push_back(conv(v));
  for (int v : g.b) b.push_back(conv(v));
  std::vector<Acc> c(g.c.begin(), g.c.end());
  expect_gemm(g, run_mma<In, Acc>(kernel, a, b, c), 1.0, [](Acc v) { return v; });
}

TEST(TensorCores, MmaSyncFragmentsFollowThePtxIsaLayouts) {
  // The kernels gather their fragments with the ISA's per-thread formulas
  // (or ldmatrix): any other layout in warptlm scrambles the product.
  expect_mma<uint16_t, float>(
      "mma_ldmatrix_f16", 16, 8, 16, [](int v) { return f16(float(v)); }, -8, 8, 12);
  expect_mma<float, float>(
      "mma_tf32_m16n8k8", 16, 8, 8, [](int v) { return float(v); }, -50, 50, 13);
  expect_mma<int8_t, int32_t>(
      "mma_s8_m16n8k32", 16, 8, 32, [](int v) { return int8_t(v); }, -128, 127, 14);
  expect_mma<double, double>(
      "mma_f64_m8n8k4", 8, 8, 4, [](int v) { return double(v); }, -999, 999, 15);
  expect_mma<uint16_t, float>(
      "mma_bf16_m16n8k8", 16, 8, 8, [](int v) { return bf16(float(v)); }, -8, 8, 16);
}

TEST(TensorCores, SatfiniteClampsIntegerAccumulators) {
  std::vector<int8_t> a(16 * 32, 127), b(32 * 8, 127);
  std::vector<int32_t> c(16 * 8, 0);
  c[0] = INT_MAX - 10;  // + 32 * 127 * 127 overflows
  c[1] = INT_MIN + 10;
  for (int k = 0; k < 32; ++k) b[size_t(k) * 8 + 1] = -128;  // column 1: negative products
  const auto d = run_mma<int8_t, int32_t>("mma_s8_m16n8k32", a, b, c);
  EXPECT_EQ(d[0], INT_MAX);
  EXPECT_EQ(d[1], INT_MIN);
  EXPECT_EQ(d[2], 32 * 127 * 127);
}

TEST(TensorCores, ALaneMissingFromASyncAlignedInstructionIsAFault) {
  LaunchSpec l;
  l.grid = {1, 1, 1};
  l.block = {32, 1, 1};
  l.buffers = {typed_buffer("a", std::vector<uint16_t>(256, f16(1.0f))),
               typed_buffer("d", std::vector<float>(32))};
  l.args = {KernelArg::buffer_arg(0), KernelArg::buffer_arg(1)};
  try {
    run_functional(tensor_program(), "wmma_divergent", l, ExecConfig{});
    FAIL() << "expected a KernelFault";
  } catch (const KernelFault& f) {
    const std::string what = f.what();
    EXPECT_NE(what.find("wmma.load.a.sync.aligned.row.m16n16k16"), std::string::npos) << what;
    EXPECT_NE(what.find(".sync.aligned: every lane of the warp executes it, but lane 1 did not"),
              std::string::npos)
        << what;
  }
}

TEST(TensorCores, AWarpOfAnotherWidthIsRefused) {
  LaunchSpec l;
  l.grid = {1, 1, 1};
  l.block = {64, 1, 1};
  l.buffers = {typed_buffer("a", std::vector<uint16_t>(256)),
               typed_buffer("d", std::vector<float>(64))};
  l.args = {KernelArg::buffer_arg(0), KernelArg::buffer_arg(1)};
  ExecConfig c;
  c.warp_size = 64;
  c.simd_width = 64;
  try {
    run_functional(tensor_program(), "wmma_divergent", l, c);
    FAIL() << "expected a KernelFault";
  } catch (const KernelFault& f) {
    EXPECT_NE(std::string(f.what()).find("needs a 32-lane warp (this warp has 64 lanes)"),
              std::string::npos)
        << f.what();
  }
}

void expect_parse_error(const std::string& instruction, const std::string& message) {
  SCOPED_TRACE(instruction);
  const std::string text =
      ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n"
      "  .reg .b32 %r<40>;\n  .reg .f32 %f<20>;\n  .reg .f64 %fd<4>;\n  .reg .b64 %rd<4>;\n  " +
      instruction + "\n  ret;\n}\n";
  try {
    parse_ptx(text, "t.ptx");
    FAIL() << "expected a PtxError";
  } catch (const PtxError& e) {
    EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("t.ptx:10:"), std::string::npos) << e.what();
  }
}

TEST(TensorCores, TheParserNamesWhatIsWrongOrNotSupported) {
  expect_parse_error("wmma.load.a.sync.aligned.row.m16n16k16.f16 {%r1, %r2}, [%rd1], 16;",
                     "has 2 elements, expected 8");
  expect_parse_error("wmma.load.a.row.m16n16k16.f16 {%r1}, [%rd1];", "needs .sync.aligned");
  expect_parse_error(
      "wmma.load.a.sync.aligned.row.m16n16k16.local.f16 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, [%rd1];",
      "accesses .global or .shared memory");
  expect_parse_error("wmma.load.a.sync.aligned.row.m16n16k8.f16 {%r1}, [%rd1];",
                     "A and B are .tf32, C and D .f32");
  expect_parse_error("wmma.load.a.sync.aligned.row.m8n8k32.s4 {%r1}, [%rd1];",
                     "'wmma.m8n8k32' (sub-byte .s4/.u4/.b1 fragments) is not supported");
  expect_parse_error("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f64 {%f1}, {%r1}, {%r2}, {%f2};",
                     "with .f16 inputs takes .f16 or .f32 for C and D");
  expect_parse_error(
      "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}, "
      "{%r1,%r2}, {%r3,%r4}, {%f9,%f10,%f11,%f12,%f13,%f14,%f15,%f16};",
      "Volta's quad-pair layout) is not supported");
  expect_parse_error(
      "mma.sync.aligned.m16n8k16.col.col.f32.f16.f16.f32 {%f1}, {%r1}, {%r2}, {%f2};",
      "takes the layouts .row.col");
  expect_parse_error(
      "mma.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32 {%f1}, {%r1}, {%r2}, {%f2};",
      "does not take .tf32 inputs");
  expect_parse_error("mma.sync.aligned.m16n8k16.row.col.f32.s8.s8.f32 {%f1}, {%r1}, {%r2}, {%f2};",
                     "with .s8/.u8 inputs takes .s32 for C and D");
  expect_parse_error("mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32 {%r1}, {%r2}, {%r3}, {%r4};",
                     "(sub-byte .s4/.u4/.b1 inputs) is not supported");
  expect_parse_error("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1, %r2}, [%r3];",
                     "has 2 elements, expected 4");
  expect_parse_error("ldmatrix.sync.aligned.m8n8.x2.global.b16 {%r1, %r2}, [%rd1];",
                     "reads .shared memory");
  expect_parse_error("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%r1], {%r2};",
                     "instruction 'stmatrix' (sm_90) is not supported");
}

}  // namespace
}  // namespace warptlm
