// printf and assert from kernels (tests/data/ptx/printf: clang's and nvcc's
// PTX of the same source): vprintf's text in issue order, the lanes of one
// call in lane order, under every reconvergence scheme; a failed assert ends
// the launch with the assertion, file, line, function and thread, keeping
// what was printed before it; and the formatter on its own.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "exec/device_printf.h"
#include "exec/functional_executor.h"
#include "exec/prepared_program.h"
#include "exec_test_util.h"
#include "frontend/ptx_error.h"
#include "frontend/ptx_parser.h"

namespace warptlm {
namespace {
using namespace warptlm::testing;

const std::string kDir = std::string(WARPTLM_TEST_DATA) + "/ptx/printf/";
const char* const kFiles[] = {"printf.clang.ptx", "printf.nvcc.ptx"};

const char* const kHello =
    "thread 0 of 3: 0.00 str a 0 0.0e+00|0   |ff %\n"
    "thread 1 of 3: 1.50 str b 100000000000 1.0e-03|1   |100 %\n"
    "thread 2 of 3: 3.00 str c 200000000000 2.0e-03|2   |101 %\n";

TEST(DevicePrintf, PrintsEveryLanesTextInLaneOrderUnderEveryScheme) {
  for (const char* file : kFiles) {
    const Module m = parse_ptx_file(kDir + file);
    const std::string hello = resolve_kernel_name(m, "hello");
    for (const std::string& scheme : reconvergence_names()) {
      SCOPED_TRACE(std::string(file) + " under " + scheme);
      const Program p = prepare_program(m, scheme);
      LaunchSpec l = one_buffer(1, 4, std::vector<int32_t>(4, -1));
      l.args.push_back(KernelArg::scalar(Type::S32, 3));
      ExecConfig c;
      c.reconvergence = scheme;
      run_functional(p, hello, l, c);
      EXPECT_EQ(l.output, kHello);
      EXPECT_EQ(l.buffers[0].bytes[3 * 4], 3);  // the kernel went on after printing
    }
  }
}

TEST(DevicePrintf, AFailedAssertIsAKernelFaultNamingItAndKeepsWhatWasPrinted) {
  for (const char* file : kFiles) {
    SCOPED_TRACE(file);
    const Module m = parse_ptx_file(kDir + file);
    const Program p = prepare_program(m, "ipdom");
    LaunchSpec l;
    l.block = {4, 1, 1};
    l.buffers.push_back(i32_buffer("in", {1, 5, 2, 9}));
    l.args = {KernelArg::buffer_arg(0), KernelArg::scalar(Type::S32, 4)};
    try {
      run_functional(p, resolve_kernel_name(m, "check"), l, ExecConfig{});
      FAIL() << "no fault";
    } catch (const KernelFault& f) {
      const std::string what = f.what();
      EXPECT_NE(what.find("assertion `in[t] < limit` failed (printf.cu:32, in "), std::string::npos)
          << what;
      EXPECT_NE(what.find("check"), std::string::npos) << what;
      // The first lane whose assertion failed, as CUDA reports one thread.
      ASSERT_TRUE(f.site.has_thread);
      EXPECT_EQ(f.site.tid.x, 1u);
      EXPECT_EQ(f.output, "checking 1\nchecking 5\nchecking 2\nchecking 9\n");
    }
  }
}

// A device memory of a few strings and an argument buffer.
struct FakeMemory {
  std::map<uint64_t, std::vector<uint8_t>> blocks;
  void put(uint64_t addr, const void* data, size_t n) {
    blocks[addr].assign(static_cast<const uint8_t*>(data), static_cast<const uint8_t*>(data) + n);
  }
  DeviceRead reader() const {
    return [this](uint64_t a, void* dst, unsigned n) {
      for (const auto& [base, bytes] : blocks)
        if (a >= base && a + n <= base + bytes.size()) {
          std::memcpy(dst, bytes.data() + (a - base), n);
          return;
        }
      throw MemoryFault(MemoryFault::Reason::OutOfBounds, Space::Global, a, n, 0,
                        "outside the fake memory");
    };
  }
};

TEST(DevicePrintf, TheFormatterFollowsCsPrintf) {
  FakeMemory mem;
  const char fmt[] = "[%5s|%-3c|%+d|%05.1f|%*d|%hhd|%lu|%p|%q|%s]";
  mem.put(0x1000, fmt, sizeof fmt);
  mem.put(0x2000, "ab", 3);
  uint8_t args[64] = {};
  auto at = [&](size_t off, auto v) { std::memcpy(args + off, &v, sizeof v); };
  at(0, uint64_t(0x2000));  // %5s
  at(8, int32_t('z'));      // %-3c
  at(12, int32_t(7));       // %+d
  at(16, 2.25);             // %05.1f (a double, 8-aligned)
  at(24, int32_t(4));       // * width
  at(28, int32_t(-3));      // %*d
  at(32, int32_t(0x1ff));   // %hhd: narrowed to -1
  at(40, uint64_t(1) << 40);
  at(48, uint64_t(0xbeef));
  at(56, uint64_t(0));  // %s of a null pointer (after %q, which takes none)
  mem.put(0x3000, args, sizeof args);
  const DevicePrintf out = format_device_printf(mem.reader(), 0x1000, 0x3000);
  EXPECT_EQ(out.text, "[   ab|z  |+7|002.2|  -3|-1|1099511627776|0xbeef|%q|(null)]");
  EXPECT_EQ(out.arguments, 10);
  // A format that ends inside a conversion prints as written.
  const char cut[] = "50%";
  mem.put(0x4000, cut, sizeof cut);
  EXPECT_EQ(format_device_printf(mem.reader(), 0x4000, 0x3000).text, "50%");
}

TEST(DevicePrintf, ALaunchKeepsAtMostCudasPrintfBufferAndSaysWhatItDropped) {
  std::string console;
  const std::string line(1000, 'x');
  for (int i = 0; i < 2000; ++i) append_console(console, line);
  EXPECT_LE(console.size(), kMaxPrintfOutput + 200);
  EXPECT_EQ(console.substr(0, 1000), line);
  EXPECT_NE(console.find("printf output past 1048576 bytes dropped"), std::string::npos);
  const std::string full = console;
  append_console(console, "more");
  EXPECT_EQ(console, full);  // nothing after the overflow
}

TEST(DevicePrintf, AFormatAtABadAddressIsAMemoryFaultNamingVprintfAndTheAddress) {
  const Program p = prepare_program(parse_ptx(R"(.version 7.0
.target sm_70
.address_size 64
.extern .func (.param .b32 r) vprintf(.param .b64 a, .param .b64 b);
.visible .entry k()
{
  .reg .b32 %r<2>;
  {
  .param .b64 param0;
  st.param.b64 [param0+0], 64;
  .param .b64 param1;
  st.param.b64 [param1+0], 0;
  .param .b32 retval0;
  call.uni (retval0), vprintf, (param0, param1);
  ld.param.b32 %r1, [retval0+0];
  }
  ret;
}
)",
                                              "bad.ptx"),
                                    "ipdom");
  LaunchSpec l;
  l.block = {2, 1, 1};
  try {
    run_functional(p, "k", l, ExecConfig{});
    FAIL() << "no fault";
  } catch (const KernelFault& f) {
    const std::string what = f.what();
    EXPECT_NE(what.find("vprintf: memory fault reading its arguments"), std::string::npos) << what;
    ASSERT_TRUE(f.site.has_address) << what;
    EXPECT_EQ(f.site.tid.x, 0u);
    EXPECT_EQ(f.output, "");
  }
}

TEST(DevicePrintf, AnUndefinedFunctionOtherThanTheRuntimesIsStillAnError) {
  const std::string ptx = R"(.version 7.0
.target sm_70
.address_size 64
.extern .func (.param .b32 r) mystery(.param .b64 a);
.visible .entry k()
{
  .reg .b32 %r<2>;
  {
  .param .b64 param0;
  st.param.b64 [param0+0], 0;
  .param .b32 retval0;
  call.uni (retval0), mystery, (param0);
  }
  ret;
}
)";
  try {
    parse_ptx(ptx, "m.ptx");
    FAIL() << "no error";
  } catch (const PtxError& e) {
    EXPECT_NE(std::string(e.what()).find("call to 'mystery', which is declared but never defined"),
              std::string::npos)
        << e.what();
  }
  const std::string wrong = R"(.version 7.0
.target sm_70
.address_size 64
.extern .func (.param .b32 r) vprintf(.param .b64 a);
.visible .entry k()
{
  {
  .param .b64 param0;
  st.param.b64 [param0+0], 0;
  .param .b32 retval0;
  call.uni (retval0), vprintf, (param0);
  }
  ret;
}
)";
  try {
    parse_ptx(wrong, "w.ptx");
    FAIL() << "no error";
  } catch (const PtxError& e) {
    EXPECT_NE(std::string(e.what()).find("'vprintf' is the CUDA runtime's and must be declared"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace warptlm
