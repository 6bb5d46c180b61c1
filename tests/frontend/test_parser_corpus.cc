// Real compiler output: every PTX file clang 14 and nvcc produced from the
// kernels in tests/data/ptx/src (see scripts/regen_test_ptx.sh) must parse
// into a well-formed module, and a few telltale features of each must be
// decoded as expected.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>

#include "frontend/ptx_parser.h"

namespace warptlm {
namespace {

namespace fs = std::filesystem;

const std::string kPtxDir = std::string(WARPTLM_TEST_DATA) + "/ptx";

std::vector<std::string> corpus_files() {
  std::vector<std::string> files;
  for (const char* sub : {"clang", "nvcc"}) {
    fs::path dir = fs::path(kPtxDir) / sub;
    if (!fs::is_directory(dir)) continue;
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".ptx") files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

Module load(const std::string& relative) { return parse_ptx_file(kPtxDir + "/" + relative); }

// Structural invariants every parsed module must satisfy.
void check_well_formed(const Module& m, const std::string& file) {
  SCOPED_TRACE(file);
  EXPECT_FALSE(m.version.empty());
  EXPECT_EQ(m.target.rfind("sm_", 0), 0u);
  ASSERT_FALSE(m.functions.empty());
  Pc expect_begin = 0;
  for (size_t fi = 0; fi < m.functions.size(); ++fi) {
    const Function& f = m.functions[fi];
    EXPECT_EQ(f.begin, expect_begin) << f.name;
    EXPECT_LT(f.begin, f.end) << f.name;
    expect_begin = f.end;
    for (const auto& l : f.labels) {
      EXPECT_GE(l.second, f.begin);
      EXPECT_LE(l.second, f.end);
    }
    for (Pc pc = f.begin; pc < f.end; pc += kInstrBytes) {
      const Instruction& in = m.at(pc);
      EXPECT_EQ(in.pc, pc);
      EXPECT_EQ(in.function, fi);
      EXPECT_FALSE(in.text.empty());
      EXPECT_GT(in.loc.line, 0u);
      if (in.has_guard) {
        ASSERT_LT(in.guard_reg, f.regs.size());
        EXPECT_EQ(f.regs[in.guard_reg].type, Type::Pred);
      }
      std::vector<const Operand*> ops;
      for (const auto& op : in.ops) {
        ops.push_back(&op);
        for (const auto& e : op.elems) ops.push_back(&e);
      }
      for (const Operand* op : ops) {
        if (op->kind == Operand::Kind::Reg || (op->kind == Operand::Kind::Address && op->has_reg)) {
          ASSERT_LT(op->reg, f.regs.size()) << in.text;
          EXPECT_EQ(op->reg_type, f.regs[op->reg].type) << in.text;
        }
        if (op->kind == Operand::Kind::Symbol ||
            (op->kind == Operand::Kind::Address && op->has_symbol)) {
          EXPECT_LT(op->symbol, m.symbols.size()) << in.text;
        }
        if (op->kind == Operand::Kind::Label) {
          EXPECT_GE(op->target, f.begin) << in.text;
          EXPECT_LT(op->target, f.end) << in.text;
        }
        if (op->kind == Operand::Kind::Function) {
          ASSERT_LT(op->func, m.functions.size()) << in.text;
          EXPECT_EQ(op->target, m.functions[op->func].begin) << in.text;
        }
      }
    }
  }
  EXPECT_EQ(expect_begin, m.code.size() * kInstrBytes);
}

bool has_op(const Module& m, Opcode op) {
  return std::any_of(m.code.begin(), m.code.end(),
                     [&](const Instruction& i) { return i.op == op; });
}

const Symbol* find_symbol(const Module& m, const std::string& name) {
  for (const auto& s : m.symbols)
    if (s.name == name) return &s;
  return nullptr;
}

TEST(PtxCorpus, EveryGeneratedFileParses) {
  auto files = corpus_files();
  // 7 kernels x (2 clang + 4 nvcc) plus 6 extra clang variants.
  EXPECT_GE(files.size(), 48u) << "PTX samples missing; run scripts/regen_test_ptx.sh";
  for (const auto& file : files) {
    try {
      check_well_formed(parse_ptx_file(file), file);
    } catch (const PtxError& e) {
      ADD_FAILURE() << e.what();
    }
  }
}

TEST(PtxCorpus, ClangO0UsesTheLocalDepot) {
  Module m = load("clang/locals.O0.sm_70.ptx");
  const Function* k = m.find_function("_Z6localsPfPKi");
  ASSERT_NE(k, nullptr);
  EXPECT_TRUE(k->is_entry);
  EXPECT_GT(k->local_size, 64u);  // int[16] plus Particle[4]
  const Symbol* depot = find_symbol(m, "__local_depot1");
  ASSERT_NE(depot, nullptr);
  EXPECT_EQ(depot->space, Space::Local);
  bool cvta_local = false;
  for (Pc pc = k->begin; pc < k->end; pc += kInstrBytes)
    cvta_local |= m.at(pc).op == Opcode::Cvta && m.at(pc).space == Space::Local;
  EXPECT_TRUE(cvta_local);
}

TEST(PtxCorpus, CallsResolveIncludingRecursion) {
  for (const char* file : {"clang/calls.O0.sm_70.ptx", "clang/calls.O3.sm_70.ptx",
                           "nvcc/calls.sm_75.ptx", "nvcc/calls.G.sm_90.ptx"}) {
    SCOPED_TRACE(file);
    Module m = load(file);
    const Function* fact = m.find_function("_Z4facti");
    ASSERT_NE(fact, nullptr);
    ASSERT_EQ(fact->rets.size(), 1u);
    ASSERT_EQ(fact->params.size(), 1u);
    uint32_t fact_index = static_cast<uint32_t>(fact - m.functions.data());
    int calls_to_fact = 0;
    for (const auto& in : m.code)
      if (in.op == Opcode::Call && in.ops[1].func == fact_index) ++calls_to_fact;
    EXPECT_GE(calls_to_fact, 1);
    const Function* k = m.find_function("_Z5callsPiPff");
    ASSERT_NE(k, nullptr);
    EXPECT_EQ(k->param_buffer_size, 20u);  // two pointers and a float
    EXPECT_GT(k->param_frame_size, 0u);    // call-site .param variables
  }
}

TEST(PtxCorpus, SharedMemoryAtomicsAndBarriers) {
  for (const char* file : {"clang/shared_atomics.O3.sm_70.ptx", "nvcc/shared_atomics.sm_75.ptx"}) {
    SCOPED_TRACE(file);
    Module m = load(file);
    const Symbol* dyn = find_symbol(m, "dyn");
    ASSERT_NE(dyn, nullptr);
    EXPECT_TRUE(dyn->is_extern);
    EXPECT_EQ(dyn->offset % dyn->align, 0u);
    EXPECT_GE(dyn->offset, m.shared_static_size);
    EXPECT_EQ(m.shared_static_size, 128u + 1024u);
    EXPECT_TRUE(has_op(m, Opcode::Bar));
    bool shared_atom = false, cas = false, inc = false;
    for (const auto& in : m.code) {
      shared_atom |= in.op == Opcode::Atom && in.space == Space::Shared;
      cas |= in.op == Opcode::Atom && in.atom == AtomOp::Cas;
      inc |= in.op == Opcode::Atom && in.atom == AtomOp::Inc;
    }
    EXPECT_TRUE(shared_atom);
    EXPECT_TRUE(cas);
    EXPECT_TRUE(inc);
  }
}

TEST(PtxCorpus, WarpPrimitives) {
  for (const char* file : {"clang/warp.O3.sm_70.ptx", "nvcc/warp.sm_90.ptx"}) {
    SCOPED_TRACE(file);
    Module m = load(file);
    bool down = false, ballot = false, all = false;
    for (const auto& in : m.code) {
      down |= in.op == Opcode::Shfl && in.shfl == ShflMode::Down && in.sync;
      ballot |= in.op == Opcode::Vote && in.vote == VoteMode::Ballot;
      all |= in.op == Opcode::Vote && in.vote == VoteMode::All;
    }
    EXPECT_TRUE(down);
    EXPECT_TRUE(ballot);
    EXPECT_TRUE(all);
    EXPECT_TRUE(has_op(m, Opcode::Activemask));
    EXPECT_TRUE(has_op(m, Opcode::Membar));  // bar.warp.sync
  }
}

TEST(PtxCorpus, InitialisedModuleVariables) {
  for (const char* file : {"clang/globals.O3.sm_70.ptx", "nvcc/globals.sm_90.ptx"}) {
    SCOPED_TRACE(file);
    Module m = load(file);
    const Symbol* coeffs = find_symbol(m, "coeffs");
    ASSERT_NE(coeffs, nullptr);
    EXPECT_EQ(coeffs->space, Space::Const);
    ASSERT_EQ(coeffs->init.size(), 16u);
    float f[4];
    std::memcpy(f, coeffs->init.data(), sizeof f);
    EXPECT_EQ(f[0], 0.5f);
    EXPECT_EQ(f[3], 2.0f);
    const Symbol* counter = find_symbol(m, "counter");
    ASSERT_NE(counter, nullptr);
    EXPECT_EQ(counter->space, Space::Global);
    EXPECT_EQ(counter->init, (std::vector<uint8_t>{7, 0, 0, 0}));
    const Symbol* scale = find_symbol(m, "scale");
    ASSERT_NE(scale, nullptr);
    double d;
    std::memcpy(&d, scale->init.data(), sizeof d);
    EXPECT_EQ(d, 2.5);
    EXPECT_EQ(m.const_data_size, 40u);
  }
}

TEST(PtxCorpus, FloatMathAndDivergentControlFlow) {
  Module m = load("nvcc/float_math.sm_75.ptx");
  for (Opcode op : {Opcode::Sqrt, Opcode::Sin, Opcode::Cos, Opcode::Ex2, Opcode::Lg2, Opcode::Fma,
                    Opcode::Rsqrt, Opcode::Div, Opcode::Cvt, Opcode::Popc, Opcode::Prmt})
    EXPECT_TRUE(has_op(m, op)) << opcode_name(op);
  Module d = load("clang/divergence.O3.sm_70.ptx");
  int guarded_branches = 0;
  for (const auto& in : d.code)
    if (in.op == Opcode::Bra && in.has_guard) ++guarded_branches;
  EXPECT_GE(guarded_branches, 4);
  EXPECT_GE(d.functions[0].labels.size(), 4u);
}

}  // namespace
}  // namespace warptlm
