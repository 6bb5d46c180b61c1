// The warptlm command-line tool end to end: exec with .npy arrays and scalars,
// analyze, run, list, and the errors a user sees for bad input.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "common/shell_command.h"
#include "common/temp_path.h"

namespace {

using Result = warptlm::testing::CommandResult;

Result cli(const std::string& args) {
  return warptlm::testing::run_shell(std::string(WARPTLM_CLI) + " " + args);
}

std::string temp_path(const std::string& name) {
  return warptlm::testing::temp_path("cli_" + name);
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// A version-1.0 .npy file of int32 values.
void write_npy_i32(const std::string& path, const std::vector<int32_t>& v) {
  std::string dict =
      "{'descr': '<i4', 'fortran_order': False, 'shape': (" + std::to_string(v.size()) + ",), }";
  size_t total = 10 + dict.size() + 1;
  dict.append((64 - total % 64) % 64, ' ');
  dict += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(dict.size() & 0xff);
  out += static_cast<char>(dict.size() >> 8);
  out += dict;
  out.append(reinterpret_cast<const char*>(v.data()), v.size() * 4);
  write_file(path, out);
}

std::vector<int32_t> read_npy_i32(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t header = 10 + (uint8_t(s[8]) | (uint8_t(s[9]) << 8));
  std::vector<int32_t> v((s.size() - header) / 4);
  std::memcpy(v.data(), s.data() + header, v.size() * 4);
  return v;
}

const char* const kSaxpy = R"(.version 7.0
.target sm_70
.address_size 64

// y[i] = a * x[i] + y[i] for i < n
.visible .entry axpy(.param .u64 x, .param .u64 y, .param .s32 a, .param .s32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [x];
  ld.param.u64 %rd2, [y];
  ld.param.s32 %r1, [a];
  ld.param.s32 %r2, [n];
  mov.u32 %r3, %tid.x;
  mov.u32 %r4, %ctaid.x;
  mov.u32 %r5, %ntid.x;
  mad.lo.s32 %r6, %r4, %r5, %r3;
  setp.ge.s32 %p1, %r6, %r2;
  @%p1 bra DONE;
  mul.wide.s32 %rd3, %r6, 4;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd2, %rd3;
  ld.global.u32 %r7, [%rd4];
  ld.global.u32 %r8, [%rd5];
  mad.lo.s32 %r9, %r1, %r7, %r8;
  st.global.u32 [%rd5], %r9;
DONE:
  ret;
}
)";

// The axpy kernel and its inputs x[i] = i, y[i] = 1000 - i (100 each) under
// names ending in `tag`; returns "PTX --kernel axpy --grid 2 --block 64 --arg
// X --arg Y --arg i32:3 --arg i32:100", whose outputs are y[i] = 3 i + 1000 - i.
std::string axpy_exec_args(const std::string& tag, std::string* y_path) {
  std::string ptx = temp_path("axpy" + tag + ".ptx"), x = temp_path("x" + tag + ".npy");
  *y_path = temp_path("y" + tag + ".npy");
  write_file(ptx, kSaxpy);
  std::vector<int32_t> xs(100), ys(100);
  for (int i = 0; i < 100; ++i) xs[i] = i, ys[i] = 1000 - i;
  write_npy_i32(x, xs);
  write_npy_i32(*y_path, ys);
  return ptx + " --kernel axpy --grid 2 --block 64 --arg " + x + " --arg " + *y_path +
         " --arg i32:3 --arg i32:100";
}

TEST(Cli, ExecRunsAKernelAndWritesArraysBackInPlace) {
  std::string ptx = temp_path("axpy.ptx"), x = temp_path("x.npy"), y = temp_path("y.npy"),
              stats = temp_path("stats.json");
  write_file(ptx, kSaxpy);
  std::vector<int32_t> xs(100), ys(100);
  for (int i = 0; i < 100; ++i) xs[i] = i, ys[i] = 1000 - i;
  write_npy_i32(x, xs);
  write_npy_i32(y, ys);
  Result r = cli("exec " + ptx + " --kernel axpy --grid 2 --block 64 --arg " + x + " --arg " + y +
                 " --arg i32:3 --arg i32:100 --warp-size 16 --stats " + stats);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("SIMD utilisation"), std::string::npos) << r.output;
  auto out = read_npy_i32(y);
  ASSERT_EQ(out.size(), 100u);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(out[i], 3 * i + 1000 - i);
  EXPECT_EQ(read_npy_i32(x), xs);
  // The run record says what ran: version, command, kernel, geometry, configuration.
  nlohmann::json j = nlohmann::json::parse(std::ifstream(stats));
  EXPECT_EQ(j["stats"]["warps"], 8);
  EXPECT_EQ(j["stats"]["branches"], 8);
  EXPECT_EQ(j["stats"]["divergent_branches"], 1);  // the warp holding threads 96..111
  EXPECT_GT(j["stats"]["simd_utilisation"].get<double>(), 0.0);
  EXPECT_FALSE(j["warptlm_version"].get<std::string>().empty());
  EXPECT_EQ(j["command"], "exec");
  EXPECT_EQ(j["mode"], "functional");
  EXPECT_EQ(j["kernel"]["name"], "axpy");
  EXPECT_EQ(j["kernel"]["source"], ptx);
  EXPECT_EQ(j["kernel"]["ptx_fnv1a64"].get<std::string>().size(), 16u);
  EXPECT_EQ(j["launch"]["grid"], nlohmann::json::array({2, 1, 1}));
  EXPECT_EQ(j["launch"]["block"], nlohmann::json::array({64, 1, 1}));
  EXPECT_EQ(j["config"]["warp_size"], 16);
  EXPECT_EQ(j["config"]["num_sms"], 2);  // the small preset's, every field
  EXPECT_EQ(j["config"]["reconvergence"], "ipdom");
}

TEST(Cli, ExecRunsTheSameKernelInTimingModeWithRunsOptions) {
  std::string y, dir = temp_path("outdir_t");
  Result r = cli("exec " + axpy_exec_args("_t", &y) +
                 " --mode timing --preset fermi --set scheduler=gto --outdir " + dir);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("timing mode (preset fermi)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("cycles "), std::string::npos) << r.output;
  auto out = read_npy_i32(y);
  for (int i = 0; i < 100; ++i) ASSERT_EQ(out[i], 3 * i + 1000 - i);
  nlohmann::json j = nlohmann::json::parse(std::ifstream(dir + "/stats.json"));
  EXPECT_EQ(j["mode"], "timing");
  EXPECT_EQ(j["config"]["scheduler"], "gto");
  EXPECT_EQ(j["config"]["num_sms"], 30);
  EXPECT_GT(j["stats"]["cycles"].get<uint64_t>(), 0u);
  nlohmann::json config = nlohmann::json::parse(std::ifstream(dir + "/config.json"));
  EXPECT_EQ(config, j["config"]);
  for (const char* file : {"/stats.txt", "/timeline.json", "/top.vcd"})
    EXPECT_TRUE(std::ifstream(dir + file).good()) << file;
  std::ifstream text(dir + "/stats.txt");
  std::string first, second;
  std::getline(text, first);
  std::getline(text, second);
  EXPECT_NE(first.find("exec, timing mode, kernel axpy"), std::string::npos) << first;
  EXPECT_EQ(second.rfind("warp_instructions", 0), 0u) << second;
  EXPECT_NE(second.find("# issued warp instructions"), std::string::npos) << second;
}

TEST(Cli, ExecPassesOneFileGivenTwiceAsOneBuffer) {
  // y[i] = a * x[i] + y[i] with x and y the same file: v[i] = 3 v[i] + v[i].
  std::string ptx = temp_path("axpy_same.ptx"), v = temp_path("v.npy");
  write_file(ptx, kSaxpy);
  write_npy_i32(v, {1, 2, 3, 4});
  Result r = cli("exec " + ptx + " --kernel axpy --block 4 --arg " + v + " --arg " + v +
                 " --arg i32:3 --arg u32:4");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(read_npy_i32(v), (std::vector<int32_t>{4, 8, 12, 16}));
  EXPECT_NE(r.output.find("1 array(s) written back"), std::string::npos) << r.output;
}

TEST(Cli, ExecAndRunShareTheirOptions) {
  // Every option of the shared set parses in both commands with the same meaning.
  std::string ptx = temp_path("axpy_opts.ptx"), x = temp_path("xo.npy");
  write_file(ptx, kSaxpy);
  write_npy_i32(x, std::vector<int32_t>(64, 1));
  const std::string shared =
      " --mode timing --preset small --set sm.schedulers=1 --warp-size 16 "
      "--reconvergence dual_path --budget 1000000";
  for (const std::string& cmd : {"exec " + ptx + " --kernel axpy --block 64 --arg " + x +
                                     " --arg " + x + " --arg i32:1 --arg i32:64",
                                 std::string("run reduction")}) {
    std::string stats = temp_path("opts.json");
    Result r = cli(cmd + shared + " --stats " + stats + " --trace " + temp_path("t.csv"));
    ASSERT_EQ(r.status, 0) << cmd << "\n" << r.output;
    nlohmann::json j = nlohmann::json::parse(std::ifstream(stats));
    EXPECT_EQ(j["mode"], "timing") << cmd;
    EXPECT_EQ(j["config"]["warp_size"], 16) << cmd;
    EXPECT_EQ(j["config"]["reconvergence"], "dual_path") << cmd;
    EXPECT_EQ(j["config"]["instruction_budget"], 1000000) << cmd;
    EXPECT_EQ(j["config"]["sm.schedulers"], 1) << cmd;
    std::ifstream trace(temp_path("t.csv"));
    std::string header;
    std::getline(trace, header);
    EXPECT_EQ(header, "cycle,sm,warp,split,pc,mask,line,instruction") << cmd;
  }
  // --warp-size and --set warp_size= are one option: one error.
  Result a = cli("run reduction --warp-size 24"), b = cli("run reduction --set warp_size=24");
  EXPECT_EQ(a.status, 2);
  EXPECT_EQ(a.output, b.output);
  Result typo = cli("run reduction --set warpsize=16");
  EXPECT_EQ(typo.status, 2);
  EXPECT_NE(typo.output.find("did you mean 'warp_size'?"), std::string::npos) << typo.output;
}

TEST(Cli, ExecRejectsBadArguments) {
  std::string ptx = temp_path("axpy2.ptx"), x = temp_path("x2.npy");
  write_file(ptx, kSaxpy);
  write_npy_i32(x, {1, 2, 3});
  Result few = cli("exec " + ptx + " --kernel axpy --block 4 --arg " + x);
  EXPECT_EQ(few.status, 2);
  EXPECT_NE(few.output.find("takes 4 arguments (x, y, a, n), got 1"), std::string::npos)
      << few.output;
  Result range = cli("exec " + ptx + " --kernel axpy --block 4 --arg " + x + " --arg " + x +
                     " --arg i32:99999999999 --arg i32:1");
  EXPECT_EQ(range.status, 2);
  EXPECT_NE(range.output.find("is not a 32-bit integer in [-2147483648, 4294967295]"),
            std::string::npos)
      << range.output;
  Result type = cli("exec " + ptx + " --kernel axpy --block 4 --arg " + x + " --arg " + x +
                    " --arg q7:1 --arg i32:1");
  EXPECT_EQ(type.status, 2);
  EXPECT_NE(type.output.find("unknown type 'q7'"), std::string::npos) << type.output;
  // A C++ kernel's plain name finds its mangled entry, as in Python.
  Result plain = cli("exec " + std::string(WARPTLM_TEST_DATA) +
                     "/ptx/warp_sync/warp_sync.nvcc.ptx --kernel warp_size --block 3 --arg " + x);
  EXPECT_EQ(plain.status, 0) << plain.output;
  EXPECT_NE(plain.output.find("kernel _Z9warp_sizePi of"), std::string::npos) << plain.output;
  write_npy_i32(x, {1, 2, 3});
  Result kernel = cli("exec " + ptx + " --kernel nope --block 4");
  EXPECT_EQ(kernel.status, 2);
  EXPECT_NE(kernel.output.find("no kernel named 'nope'"), std::string::npos) << kernel.output;
  write_file(x, "not numpy");
  Result bad_npy = cli("exec " + ptx + " --kernel axpy --block 4 --arg " + x + " --arg " + x +
                       " --arg i32:1 --arg i32:1");
  EXPECT_EQ(bad_npy.status, 1);
  EXPECT_NE(bad_npy.output.find("not a usable .npy file"), std::string::npos) << bad_npy.output;
  Result opt = cli("exec " + ptx + " --kernel axpy --block 4 --frobnicate 3");
  EXPECT_EQ(opt.status, 2);
  EXPECT_NE(opt.output.find("not expected: 3 --frobnicate"), std::string::npos) << opt.output;
  EXPECT_NE(opt.output.find("Run 'warptlm exec --help'"), std::string::npos) << opt.output;
}

TEST(Cli, ExecReportsAnOutOfBoundsFaultWithExitStatus1) {
  std::string ptx = temp_path("axpy3.ptx"), x = temp_path("x3.npy"), y = temp_path("y3.npy");
  write_file(ptx, kSaxpy);
  write_npy_i32(x, std::vector<int32_t>(10, 1));
  write_npy_i32(y, std::vector<int32_t>(10, 2));
  Result r = cli("exec " + ptx + " --kernel axpy --block 32 --arg " + x + " --arg " + y +
                 " --arg i32:1 --arg i32:11");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.output.find("kernel fault: kernel 'axpy'"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("thread (10,0,0)"), std::string::npos) << r.output;
  EXPECT_EQ(read_npy_i32(y), std::vector<int32_t>(10, 2));  // untouched after a fault
}

TEST(Cli, MalformedPtxGivesFileLineColumn) {
  std::string ptx = temp_path("bad.ptx");
  write_file(ptx,
             ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k()\n{\n  frob.u32 "
             "%r1;\n}\n");
  Result r = cli("analyze " + ptx);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.output.find(ptx + ":6:3:"), std::string::npos) << r.output;
}

TEST(Cli, AnalyzeListsBranchesWithReconvergenceAndTaint) {
  std::string ptx = temp_path("axpy4.ptx");
  write_file(ptx, kSaxpy);
  Result r = cli("analyze " + ptx);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find(".entry axpy"), std::string::npos) << r.output;
  // @%p1 bra DONE at pc 0x48 reconverges at DONE (0x88); n is a parameter: P.
  EXPECT_NE(r.output.find("pc 0x0048  -> 0x0088  reconv 0x0088  structured  taint P"),
            std::string::npos)
      << r.output;
}

TEST(Cli, AnalyzePrintsTheReconvergingCfgAsTextAndGraphviz) {
  const std::string ptx = WARPTLM_SOURCE_DIR "/scenarios/collatz/kernel.ptx";
  Result text = cli("analyze --reconverging " + ptx);
  ASSERT_EQ(text.status, 0) << text.output;
  EXPECT_NE(text.output.find("  reconverging CFG: 1 flow block inserted\n"), std::string::npos)
      << text.output;
  EXPECT_NE(text.output.find("    B6 [0x00f8] -> B3 flow0  divergent\n"), std::string::npos)
      << text.output;
  EXPECT_NE(text.output.find("      from B3 for B4 -> B4\n"), std::string::npos) << text.output;
  Result dot = cli("analyze --reconverging-dot " + ptx);
  ASSERT_EQ(dot.status, 0) << dot.output;
  EXPECT_EQ(dot.output.rfind("digraph \"collatz_steps\" {", 0), 0u) << dot.output;
  // Graphviz (installed by scripts/setup.sh) reads it.
  const std::string file = temp_path("collatz.dot");
  write_file(file, dot.output);
  EXPECT_EQ(std::system(("dot -Tsvg " + file + " > /dev/null").c_str()), 0);
}

TEST(Cli, AnalyzeLoweredListsTheExecMaskCodeThatExecMaskRuns) {
  const std::string ptx = WARPTLM_SOURCE_DIR "/scenarios/collatz/kernel.ptx";
  Result r = cli("analyze --lowered " + ptx);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("lowered to exec masks: 1 flow block(s) inserted, 27 instruction(s) "
                          "written\n"),
            std::string::npos)
      << r.output;
  // Blocks by their reconverging-CFG names, written instructions starred.
  EXPECT_NE(r.output.find("  [flow0]\n   * 0x01c0  emask.join 3\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("   * 0x0030  @%p1 emask.defer 0\n"), std::string::npos) << r.output;
  Result both = cli("analyze --lowered --markers " + ptx);
  EXPECT_EQ(both.status, 2);
  EXPECT_NE(both.output.find("--markers excludes --lowered"), std::string::npos) << both.output;
}

TEST(Cli, RunChecksAScenarioAndRejectsUnknownNames) {
  Result r = cli("run reduction --size test");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("host reference: PASS"), std::string::npos) << r.output;
  Result unknown = cli("run nosuch");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.output.find("reduction"), std::string::npos) << unknown.output;
  Result size = cli("run reduction --size huge");
  EXPECT_EQ(size.status, 2);
  EXPECT_NE(size.output.find("study"), std::string::npos) << size.output;
}

TEST(Cli, RunInTimingModeReportsCyclesAndTakesOverrides) {
  Result r =
      cli("run reduction --mode timing --preset small --set sm.schedulers=1 --set "
          "scheduler=gto");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("timing mode (preset small)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("cycles "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("host reference: PASS"), std::string::npos) << r.output;
  Result bad = cli("run reduction --mode timing --set sm.schedulers=0");
  EXPECT_NE(bad.status, 0);
  EXPECT_NE(bad.output.find("sm.schedulers"), std::string::npos) << bad.output;
  Result functional_timeline = cli("run reduction --timeline x.json");
  EXPECT_EQ(functional_timeline.status, 2);
  EXPECT_NE(functional_timeline.output.find("--mode timing"), std::string::npos);
}

TEST(Cli, ListShowsEachSection) {
  Result r = cli("list");
  ASSERT_EQ(r.status, 0);
  for (const char* text : {"presets:", "scenarios:", "schemes:", "statistics:", "reduction",
                           "bitonic", "mandelbrot", "fermi", "dual_path", "sm.slot_issued"})
    EXPECT_NE(r.output.find(text), std::string::npos) << text;
  Result presets = cli("list presets");
  EXPECT_EQ(presets.output.rfind("presets:\n  small", 0), 0u) << presets.output;
  EXPECT_EQ(presets.output.find("reduction"), std::string::npos) << presets.output;
  EXPECT_NE(cli("list fields").output.find("memory.l1.size"), std::string::npos);
  EXPECT_EQ(cli("list nonsense").status, 2);
}

TEST(Cli, UsageErrorsExitWith2) {
  EXPECT_EQ(cli("").status, 2);
  EXPECT_EQ(cli("frobnicate").status, 2);
  EXPECT_EQ(cli("exec").status, 2);
}

TEST(Cli, VersionAndPerCommandHelp) {
  Result v = cli("--version");
  EXPECT_EQ(v.status, 0);
  EXPECT_EQ(v.output.rfind("warptlm ", 0), 0u) << v.output;
  Result help = cli("exec --help");
  EXPECT_EQ(help.status, 0);
  EXPECT_NE(help.output.find("Usage: warptlm exec"), std::string::npos) << help.output;
  EXPECT_NE(help.output.find("--kernel"), std::string::npos) << help.output;
  EXPECT_NE(help.output.find("--mode"), std::string::npos) << help.output;
  EXPECT_EQ(help.output.find("--size"), std::string::npos) << help.output;  // run's, not exec's
}

}  // namespace

namespace {

TEST(Cli, ConfigFileIsTheBaseThatSetOverrides) {
  const std::string config = temp_path("base.yaml"), stats = temp_path("config_stats.json");
  write_file(config, "preset: small\nnum_sms: 3\nmemory: {l1: {size: 16384}}\n");
  const Result r = cli("run reduction --config " + config + " --set num_sms=4 --stats " + stats);
  ASSERT_EQ(r.status, 0) << r.output;
  const nlohmann::json record = nlohmann::json::parse(std::ifstream(stats));
  EXPECT_EQ(record["config"]["num_sms"], 4);
  EXPECT_EQ(record["config"]["memory.l1.size"], 16384);
  EXPECT_EQ(record["config"]["sm.warps"], 16);  // the small preset's
  write_file(config, "memory:\n  l1:\n    assoc: 0\n");
  const Result bad = cli("run reduction --config " + config);
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.output.find(config + ": memory.l1.assoc: must be an integer in [1, 256], got 0"),
            std::string::npos)
      << bad.output;
}

}  // namespace
