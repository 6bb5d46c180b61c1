// Taint labels on PTX text: clang 14 output of tests/data/ptx/taint/
// taint_kernels.cu at -O0 and -O3 (each kernel's name says its branches' taint),
// generated with
//   clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_70 -nocudainc -nocudalib
//     -S -O0 -o taint_kernels_O0.ptx taint_kernels.cu     (and -O3)
// plus hand-written snippets; and a smoke run over every PTX file under
// tests/data/ptx.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>

#include "finalizer_test_util.h"
#include "frontend/finalizer.h"

namespace warptlm {
namespace {

using testing::cond_branch;
using testing::finalize_ptx;
using testing::ptx_kernel;

const std::string kTaintDir = std::string(WARPTLM_TEST_DATA) + "/ptx/taint/";

// Per kernel (by mangled name), its conditional branch taints in PC order.
std::map<std::string, std::string> kernel_labels(const Program& p) {
  std::map<std::string, std::string> out;
  for (const BranchInfo& b : p.branches) {
    const Function& fn = p.module.function_at(b.pc);
    if (fn.is_entry && b.conditional) out[fn.name] += taint_name(b.taint);
  }
  return out;
}

// "_Z8p_on_tidPi" -> "p_on_tidPi": the source name starts after the length.
std::string unmangled(const std::string& name) {
  size_t i = 2;
  while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i]))) ++i;
  return name.substr(i);
}

std::string sorted(std::string s) {
  std::sort(s.begin(), s.end());
  return s;
}

class ClangPair : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    o0 = new Program(finalize(parse_ptx_file(kTaintDir + "taint_kernels_O0.ptx")));
    o3 = new Program(finalize(parse_ptx_file(kTaintDir + "taint_kernels_O3.ptx")));
  }
  static void TearDownTestSuite() {
    delete o0;
    delete o3;
  }
  static Program* o0;
  static Program* o3;
};
Program* ClangPair::o0 = nullptr;
Program* ClangPair::o3 = nullptr;

TEST_F(ClangPair, KernelsGetTheTaintTheirNameSays) {
  for (const Program* p : {o0, o3}) {
    auto labels = kernel_labels(*p);
    ASSERT_EQ(labels.size(), 10u);
    for (const auto& [name, l] : labels) {
      SCOPED_TRACE(name);
      ASSERT_FALSE(l.empty());
      const std::string source = unmangled(name);
      if (source.rfind("p_", 0) == 0)
        EXPECT_EQ(l, std::string(l.size(), 'P'));
      else if (source.rfind("d_", 0) == 0)
        EXPECT_EQ(l, std::string(l.size(), 'D'));
      else
        EXPECT_EQ(source, "mixedPiPKii");
    }
  }
}

TEST_F(ClangPair, SpilledTidIsProgrammaticAtO0) {
  // -O0 stores %tid.x to the depot and compares a reload of it.
  auto labels = kernel_labels(*o0);
  EXPECT_EQ(labels.at("_Z8p_on_tidPi"), "P");
  EXPECT_EQ(labels.at("_Z10p_on_paramPii"), "P");
  EXPECT_EQ(labels.at("_Z9d_on_loadPiPKi"), "D");
  EXPECT_EQ(labels.at("_Z19d_loop_loaded_boundPiPKi"), "D");
  EXPECT_EQ(labels.at("_Z18p_loop_param_boundPii"), "P");
  EXPECT_EQ(labels.at("_Z19d_on_helper_of_loadPiPKi"), "D");
  EXPECT_EQ(labels.at("_Z18p_on_helper_of_tidPi"), "P");
  // A local array whose address escapes into a callee that fills it.
  EXPECT_EQ(labels.at("_Z13p_local_arrayPii"), "P");
  EXPECT_EQ(labels.at("_Z13d_local_arrayPiPKi"), "D");
}

TEST_F(ClangPair, DeviceFunctionLoopsAreProgrammatic) {
  // fill / fill_loaded compare their counter with a formal that every caller
  // passes as the constant 8.
  for (const Program* p : {o0, o3})
    for (const BranchInfo& b : p->branches) {
      const Function& fn = p->module.function_at(b.pc);
      if (!fn.is_entry && b.conditional) {
        EXPECT_EQ(b.taint, Taint::Programmatic) << fn.name;
      }
    }
}

TEST_F(ClangPair, O0AndO3LabelBranchesAlike) {
  auto l0 = kernel_labels(*o0), l3 = kernel_labels(*o3);
  for (const auto& [name, l] : l0) {
    SCOPED_TRACE(name);
    ASSERT_TRUE(l3.count(name));
    // Loops are rotated and unrolled at -O3, so only loop-free kernels keep
    // their branch count; the labels always agree.
    EXPECT_EQ(sorted(l).back(), sorted(l3[name]).back());
    EXPECT_EQ(sorted(l).front(), sorted(l3[name]).front());
  }
  EXPECT_EQ(sorted(l0.at("_Z5mixedPiPKii")), "DDPPP");
  EXPECT_EQ(sorted(l3.at("_Z5mixedPiPKii")), "DDPPP");
}

TEST(TaintPtx, LoopCounterAgainstLoadedBound) {
  Program p = finalize_ptx(ptx_kernel(R"(
  ld.param.u64 %rd1, [k_ptr];
  ld.param.u32 %r5, [k_n];
  ld.global.u32 %r1, [%rd1];
  mov.u32 %r2, 0;
HEAD:
  setp.ge.s32 %p1, %r2, %r1;
  @%p1 bra DONE;
  setp.ge.s32 %p2, %r2, %r5;
  @%p2 bra DONE;
  add.s32 %r2, %r2, 1;
  bra.uni HEAD;
DONE:
  ret;
)"));
  EXPECT_EQ(cond_branch(p, 0).taint, Taint::DataDependent);  // counter vs loaded bound
  EXPECT_EQ(cond_branch(p, 1).taint, Taint::Programmatic);   // counter vs parameter
}

TEST(TaintPtx, LocalSpillsAndNondeterministicRegisters) {
  Program p = finalize_ptx(ptx_kernel(R"(
  .local .align 4 .b8 __local_depot0[16];
  .reg .b64 %SP;
  .reg .b64 %SPL;
  mov.u64 %SPL, __local_depot0;
  cvta.local.u64 %SP, %SPL;
  ld.param.u64 %rd1, [k_ptr];
  mov.u32 %r1, %tid.x;
  st.local.u32 [%SPL+4], %r1;
  ld.global.u32 %r2, [%rd1];
  st.u32 [%SP+8], %r2;
  add.s64 %rd2, %SP, 4;
  ld.u32 %r3, [%rd2];
  setp.eq.s32 %p1, %r3, 0;
  @%p1 bra A;
A:
  ld.local.u32 %r4, [%SPL+8];
  setp.eq.s32 %p2, %r4, 0;
  @%p2 bra B;
B:
  mov.u32 %r6, %clock;
  setp.eq.s32 %p3, %r6, 0;
  @%p3 bra C;
C:
  ld.const.u32 %r7, [%rd1];
  setp.eq.s32 %p4, %r7, 0;
  @%p4 bra D;
D:
  ret;
)"));
  EXPECT_EQ(cond_branch(p, 0).taint, Taint::Programmatic);   // tid via slot 4
  EXPECT_EQ(cond_branch(p, 1).taint, Taint::DataDependent);  // data via slot 8
  EXPECT_EQ(cond_branch(p, 2).taint, Taint::DataDependent);  // %clock
  EXPECT_EQ(cond_branch(p, 3).taint, Taint::Programmatic);   // constant memory
}

// Every PTX file of the test data (clang and nvcc output of the parser's
// sources, and taint/) finalizes, with and without markers, and the results
// are self-consistent.
TEST(TaintPtx, SmokeOverAllTestData) {
  namespace fs = std::filesystem;
  size_t files = 0;
  for (const auto& entry :
       fs::recursive_directory_iterator(std::string(WARPTLM_TEST_DATA) + "/ptx")) {
    if (entry.path().extension() != ".ptx") continue;
    SCOPED_TRACE(entry.path().string());
    Module m;
    ASSERT_NO_THROW(m = parse_ptx_file(entry.path().string()));
    ++files;
    Program plain, marked;
    ASSERT_NO_THROW(plain = finalize(m));
    ASSERT_NO_THROW(marked = finalize(m, FinalizeOptions{true}));
    for (const Program* p : {&plain, &marked}) {
      ASSERT_EQ(p->cfgs.size(), p->module.functions.size());
      ASSERT_EQ(p->branch_index.size(), p->module.code.size());
      for (size_t i = 0; i < p->branches.size(); ++i) {
        const BranchInfo& b = p->branches[i];
        EXPECT_EQ(p->branch_index[b.pc / kInstrBytes], int32_t(i));
        EXPECT_EQ(p->module.at(b.pc).op, Opcode::Bra);
        if (b.reconv == kExitPc) continue;
        EXPECT_EQ(p->module.at(b.reconv).function, p->module.at(b.pc).function);
        if (p == &marked && b.conditional) {
          EXPECT_EQ(p->module.at(b.reconv).op, Opcode::Reconverge);
        }
      }
    }
    // Markers add instructions and change no other fact.
    EXPECT_EQ(marked.module.code.size(),
              plain.module.code.size() + reconvergence_pcs(plain).size());
    ASSERT_EQ(marked.branches.size(), plain.branches.size());
    for (size_t i = 0; i < plain.branches.size(); ++i) {
      EXPECT_EQ(marked.branches[i].taint, plain.branches[i].taint);
      EXPECT_EQ(marked.branches[i].structured, plain.branches[i].structured);
      EXPECT_EQ(marked.branches[i].conditional, plain.branches[i].conditional);
    }
  }
  EXPECT_GE(files, 2u);
}

}  // namespace
}  // namespace warptlm
