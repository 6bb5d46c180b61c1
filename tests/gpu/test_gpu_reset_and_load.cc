// The Gpu's driver-facing lifecycle through its registers: loading a program
// image from memory (the LOAD command), selecting kernels by index and by
// name, the ERROR_TEXT window, and reset (the RESET register and the rst
// input) at any time: mid-kernel, after a fault, while idle, several in a row.
#include <gtest/gtest.h>

#include <cstring>
#include <sstream>
#include <string>

#include "common/systemc_child.h"
#include "gpu_bench.h"

namespace warptlm {
namespace {

using testing::AddBuffers;
using testing::Bench;
using testing::entry;
using testing::error_text;
using testing::ForeignMemory;
using testing::in_child_process;
using testing::ScriptHost;
using testing::settle;
using testing::setup_add;
using testing::setup_add_in;

void wait_irq(Bench& b) {
  while (!b.irq.read()) sc_core::wait(b.irq.value_changed_event());
}

// Writes a 64-bit address into a LO/HI register pair.
void set_address(ScriptHost& host, uint32_t lo, uint64_t address) {
  host.set(lo, static_cast<uint32_t>(address));
  host.set(lo + 4, static_cast<uint32_t>(address >> 32));
}

// A string placed in the default store, NUL included.
uint64_t place(Gpu& gpu, const std::string& s, const char* what) {
  const uint64_t a = gpu.default_store().allocate(s.size() + 1, what);
  gpu.default_store().write(a, s.c_str(), s.size() + 1);
  return a;
}

// The geometry and parameters of the add kernel (KERNEL set by the caller).
void add_geometry(ScriptHost& host, const AddBuffers& a) {
  host.set(reg::kGridX, 2);
  host.set(reg::kBlockX, 32);
  set_address(host, reg::kParamAddrLo, a.params);
}

// Launches add (program `handle`) with the interrupts on and expects it done.
void launch_add_to_completion(ScriptHost& host, Bench& b, uint32_t handle, const AddBuffers& a) {
  host.set(reg::kIrqEnable, kIrqMask);
  host.set(reg::kProgram, handle);
  host.set(reg::kKernel, entry(b.gpu, handle, "add"));
  add_geometry(host, a);
  host.set(reg::kLaunch, 1);
  wait_irq(b);
  EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::Done)) << b.gpu.last_error();
}

// spin's buffer (64 words) and parameters in the default store.
struct SpinBuffers {
  uint64_t buf = 0, params = 0;
};
SpinBuffers setup_spin(DeviceMemory& mem, uint32_t rounds) {
  SpinBuffers s;
  s.buf = mem.allocate(64 * 4, "spin buf");
  std::vector<uint8_t> zero(64 * 4, 0);
  mem.write(s.buf, zero.data(), zero.size());
  uint8_t params[12];
  std::memcpy(params, &s.buf, 8);
  std::memcpy(params + 8, &rounds, 4);
  s.params = mem.allocate(sizeof params, "spin params");
  mem.write(s.params, params, sizeof params);
  return s;
}

// Starts spin (1 CTA of 64 threads) and lets it run for `run_for`.
void start_spin(ScriptHost& host, Gpu& gpu, uint32_t handle, uint64_t params,
                sc_core::sc_time run_for) {
  host.set(reg::kProgram, handle);
  host.set(reg::kKernel, entry(gpu, handle, "spin"));
  host.set(reg::kGridX, 1);
  host.set(reg::kBlockX, 64);
  set_address(host, reg::kParamAddrLo, params);
  host.set(reg::kLaunch, 1);
  sc_core::wait(run_for);
  EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::Running));
}

TEST(GpuLoad, TheLoadCommandReadsParsesAndRegistersAProgramFromMemory) {
  in_child_process([] {
    Bench* b = nullptr;
    AddBuffers buffers;
    uint64_t image = 0, name = 0;
    auto script = [&](ScriptHost& host) {
      Gpu& gpu = b->gpu;
      host.set(reg::kIrqEnable, kIrqMask);
      set_address(host, reg::kImageAddrLo, image);
      host.set(reg::kImageSize, static_cast<uint32_t>(std::strlen(testing::kGpuKernels) + 1));
      host.set(reg::kCommand, uint32_t(GpuCommand::Load));
      EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::Done)) << gpu.last_error();
      EXPECT_EQ(host.read(reg::kError), 0u);
      EXPECT_EQ(host.read(reg::kIrqStatus), 0u);  // synchronous: no interrupt for a success
      const uint32_t handle = host.read(reg::kProgram);
      EXPECT_EQ(handle, 1u);
      ASSERT_NE(gpu.program(handle), nullptr);
      EXPECT_EQ(host.read(reg::kKernelCount), 3u);
      EXPECT_EQ(host.read(reg::kKernel), entry(gpu, handle, "add"));  // kernel 0
      // By name, then by index.
      set_address(host, reg::kNameAddrLo, name);
      host.set(reg::kNameSize, 5);
      host.set(reg::kCommand, uint32_t(GpuCommand::KernelByName));
      EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::Done));
      EXPECT_EQ(host.read(reg::kKernel), entry(gpu, handle, "crash"));
      host.set(reg::kKernelIndex, 2);
      host.set(reg::kCommand, uint32_t(GpuCommand::KernelByIndex));
      EXPECT_EQ(host.read(reg::kKernel), entry(gpu, handle, "hungry"));
      host.set(reg::kKernelIndex, 0);
      host.set(reg::kCommand, uint32_t(GpuCommand::KernelByIndex));
      EXPECT_EQ(host.read(reg::kKernel), entry(gpu, handle, "add"));
      add_geometry(host, buffers);
      host.set(reg::kLaunch, 1);
      wait_irq(*b);
      EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::Done)) << gpu.last_error();
      EXPECT_EQ(host.read(reg::kIrqStatus), kIrqDone);
    };
    Bench bench(script);
    b = &bench;
    buffers = setup_add(bench.gpu, 7);
    image = place(bench.gpu, testing::kGpuKernels, "image");
    name = place(bench.gpu, "crash", "name");
    sc_core::sc_start();
    EXPECT_TRUE(bench.host.finished);
    testing::expect_add(bench.gpu.default_store(), buffers.out, 7);
  });
}

// Line 6, column 3: an opcode PTX does not have.
const std::string kBadImage =
    ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k()\n{\n  frob.u32 %r1;\n}\n";

TEST(GpuLoad, BadImagesNamesAndCommandsAreRefusedWithTheirTextAndTheGpuGoesOn) {
  in_child_process([] {
    Bench* b = nullptr;
    uint64_t good = 0, bad = 0, name = 0;
    auto script = [&](ScriptHost& host) {
      Gpu& gpu = b->gpu;
      host.set(reg::kIrqEnable, kIrqError);
      // Issues `command`, expects a refusal with `error` whose text starts
      // with `prefix`, readable through the window; acknowledges it.
      auto refused = [&](GpuCommand command, GpuError error, const std::string& prefix) {
        host.set(reg::kCommand, uint32_t(command));
        EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::LaunchError));
        EXPECT_EQ(host.read(reg::kError), uint32_t(error)) << gpu.last_error();
        EXPECT_EQ(gpu.last_error().rfind(prefix, 0), 0u) << gpu.last_error();
        EXPECT_EQ(error_text(host), gpu.last_error());
        settle();
        EXPECT_TRUE(b->irq.read());
        host.set(reg::kIrqStatus, kIrqError);
      };
      refused(GpuCommand::Load, GpuError::BadImage,
              "load: IMAGE_SIZE = 0: must be 1..67108864 bytes");
      host.set(reg::kImageAddrLo, 0x10);
      host.set(reg::kImageSize, 16);
      refused(GpuCommand::Load, GpuError::BadImage,
              "load: the image (16 bytes at IMAGE_ADDR 0x10) cannot be read from device memory");
      set_address(host, reg::kImageAddrLo, bad);
      host.set(reg::kImageSize, static_cast<uint32_t>(kBadImage.size()));
      std::ostringstream where;
      where << "load: image@0x" << std::hex << bad << ":6:3: ";
      refused(GpuCommand::Load, GpuError::BadImage, where.str());
      EXPECT_EQ(gpu.program(1), nullptr);  // nothing was registered
      host.set(reg::kCommand, 9);
      EXPECT_EQ(host.read(reg::kError), uint32_t(GpuError::BadCommand));
      EXPECT_EQ(gpu.last_error(),
                "command: COMMAND = 9 is not a command (1 load, 2 kernel by index, "
                "3 kernel by name)");
      host.set(reg::kIrqStatus, kIrqError);
      host.set(reg::kProgram, 7);
      refused(GpuCommand::KernelByIndex, GpuError::BadProgram,
              "kernel by index: PROGRAM = 7 is not a program handle (no program is loaded)");
      // A good load after the refusals: the text window empties.
      set_address(host, reg::kImageAddrLo, good);
      host.set(reg::kImageSize, static_cast<uint32_t>(std::strlen(testing::kGpuKernels)));
      host.set(reg::kCommand, uint32_t(GpuCommand::Load));
      EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::Done)) << gpu.last_error();
      EXPECT_EQ(host.read(reg::kErrorTextLen), 0u);
      host.set(reg::kKernelIndex, 3);
      refused(GpuCommand::KernelByIndex, GpuError::BadKernel,
              "kernel by index: KERNEL_INDEX = 3: program 1 has 3 kernels (0 add, 1 crash, 2 "
              "hungry)");
      set_address(host, reg::kNameAddrLo, name);
      host.set(reg::kNameSize, 5);  // "nope" and its NUL
      refused(GpuCommand::KernelByName, GpuError::BadKernel,
              "kernel by name: program 1 has no kernel 'nope' (kernels: 0 add, 1 crash, 2 "
              "hungry)");
      host.set(reg::kNameSize, 0);
      refused(GpuCommand::KernelByName, GpuError::BadKernel,
              "kernel by name: NAME_SIZE = 0: must be 1..1024 bytes");
    };
    Bench bench(script);
    b = &bench;
    good = place(bench.gpu, testing::kGpuKernels, "good image");
    bad = place(bench.gpu, kBadImage, "bad image");
    name = place(bench.gpu, "nope", "name");
    sc_core::sc_start();
    EXPECT_TRUE(bench.host.finished);
  });
}

TEST(GpuReset, ResetMidKernelAbandonsTheLaunchAndTheNextLaunchWorks) {
  in_child_process([] {
    Bench* b = nullptr;
    AddBuffers buffers;
    SpinBuffers spin;
    uint32_t kernels = 0, spinner = 0;
    auto script = [&](ScriptHost& host) {
      Gpu& gpu = b->gpu;
      host.set(reg::kIrqEnable, kIrqMask);
      start_spin(host, gpu, spinner, spin.params, sc_core::sc_time(20, sc_core::SC_US));
      uint32_t before = 0;
      gpu.default_store().read(spin.buf, &before, 4);
      EXPECT_GT(before, 0u);  // it did run
      host.set(reg::kReset, 1);
      EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::Idle));
      EXPECT_EQ(host.read(reg::kIrqEnable), 0u);
      EXPECT_EQ(host.read(reg::kProgram), 0u);
      EXPECT_EQ(host.read(reg::kCycleLo), 0u);  // counts from the reset
      settle();
      EXPECT_FALSE(b->irq.read());
      // The abandoned kernel stays stopped.
      sc_core::wait(sc_core::sc_time(5, sc_core::SC_US));
      uint32_t after = 0;
      gpu.default_store().read(spin.buf, &after, 4);
      EXPECT_EQ(after, before);
      EXPECT_GT(host.read(reg::kCycleLo), 0u);
      // Programs survive the reset; the next launch runs to completion.
      launch_add_to_completion(host, *b, kernels, buffers);
      EXPECT_EQ(host.read(reg::kIrqStatus), kIrqDone);
    };
    Bench bench(script);
    b = &bench;
    kernels = bench.gpu.load_program(testing::program_of(testing::kGpuKernels));
    spinner = bench.gpu.load_program(testing::program_of(testing::kSpinKernel));
    buffers = setup_add(bench.gpu, 3);
    spin = setup_spin(bench.gpu.default_store(), 1000000);
    sc_core::sc_start();
    EXPECT_TRUE(bench.host.finished);
    testing::expect_add(bench.gpu.default_store(), buffers.out, 3);
    EXPECT_EQ(bench.gpu.resets(), 1u);
    EXPECT_EQ(bench.gpu.stats()["launches"].get<uint64_t>(), 2u);
  });
}

TEST(GpuReset, AFaultIsNoLongerStickyAfterAReset) {
  in_child_process([] {
    Bench* b = nullptr;
    AddBuffers buffers;
    uint32_t handle = 0;
    auto script = [&](ScriptHost& host) {
      Gpu& gpu = b->gpu;
      host.set(reg::kIrqEnable, kIrqMask);
      host.set(reg::kProgram, handle);
      host.set(reg::kKernel, entry(gpu, handle, "crash"));
      host.set(reg::kLaunch, 1);
      wait_irq(*b);
      EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::Fault));
      EXPECT_GT(host.read(reg::kErrorTextLen), 0u);
      EXPECT_EQ(error_text(host), gpu.last_error());
      host.set(reg::kIrqStatus, kIrqMask);
      host.set(reg::kKernel, entry(gpu, handle, "add"));
      add_geometry(host, buffers);
      host.set(reg::kLaunch, 1);  // refused: the fault is sticky until a reset
      EXPECT_EQ(host.read(reg::kError), uint32_t(GpuError::Faulted));
      EXPECT_NE(gpu.last_error().find("reset it (the RESET register or the rst input)"),
                std::string::npos)
          << gpu.last_error();
      host.set(reg::kReset, 1);
      settle();  // irq follows the cleared IRQ_STATUS
      EXPECT_FALSE(b->irq.read());
      EXPECT_FALSE(gpu.fault().has_value());
      EXPECT_EQ(host.read(reg::kErrorTextLen), 0u);
      launch_add_to_completion(host, *b, handle, buffers);
    };
    Bench bench(script);
    b = &bench;
    handle = bench.gpu.load_program(testing::program_of(testing::kGpuKernels));
    buffers = setup_add(bench.gpu, 11);
    sc_core::sc_start();
    EXPECT_TRUE(bench.host.finished);
    testing::expect_add(bench.gpu.default_store(), buffers.out, 11);
  });
}

TEST(GpuReset, TheRstInputResetsOnItsRisingEdge) {
  in_child_process([] {
    Bench* b = nullptr;
    sc_core::sc_signal<bool>* rst = nullptr;
    AddBuffers buffers;
    SpinBuffers spin;
    uint32_t kernels = 0, spinner = 0;
    auto script = [&](ScriptHost& host) {
      Gpu& gpu = b->gpu;
      host.set(reg::kIrqEnable, kIrqMask);
      start_spin(host, gpu, spinner, spin.params, sc_core::sc_time(10, sc_core::SC_US));
      rst->write(true);
      settle();
      EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::Idle));
      EXPECT_EQ(gpu.resets(), 1u);
      sc_core::wait(sc_core::sc_time(1, sc_core::SC_US));
      EXPECT_EQ(gpu.resets(), 1u);  // a level held high is one reset
      rst->write(false);
      settle();
      launch_add_to_completion(host, *b, kernels, buffers);
    };
    Bench bench(script);
    b = &bench;
    sc_core::sc_signal<bool> rst_line("rst_line");
    rst = &rst_line;
    bench.gpu.rst.bind(rst_line);
    kernels = bench.gpu.load_program(testing::program_of(testing::kGpuKernels));
    spinner = bench.gpu.load_program(testing::program_of(testing::kSpinKernel));
    buffers = setup_add(bench.gpu, 5);
    spin = setup_spin(bench.gpu.default_store(), 1000000);
    sc_core::sc_start();
    EXPECT_TRUE(bench.host.finished);
    testing::expect_add(bench.gpu.default_store(), buffers.out, 5);
  });
}

TEST(GpuReset, ResetsInARowAndWhileIdleAreHarmless) {
  in_child_process([] {
    Bench* b = nullptr;
    AddBuffers buffers;
    uint32_t handle = 0;
    auto script = [&](ScriptHost& host) {
      for (int i = 0; i < 3; ++i) host.set(reg::kReset, 1);
      sc_core::wait(sc_core::sc_time(1, sc_core::SC_US));
      host.set(reg::kReset, 1);
      EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::Idle));
      launch_add_to_completion(host, *b, handle, buffers);
    };
    Bench bench(script);
    b = &bench;
    handle = bench.gpu.load_program(testing::program_of(testing::kGpuKernels));
    buffers = setup_add(bench.gpu, 2);
    sc_core::sc_start();
    EXPECT_TRUE(bench.host.finished);
    testing::expect_add(bench.gpu.default_store(), buffers.out, 2);
    EXPECT_EQ(bench.gpu.resets(), 4u);
  });
}

TEST(GpuReset, ResetMidKernelWithTrafficToAForeignMemory) {
  in_child_process([] {
    Bench* b = nullptr;
    ForeignMemory* foreign = nullptr;
    AddBuffers buffers;
    uint32_t kernels = 0, spinner = 0;
    auto script = [&](ScriptHost& host) {
      Gpu& gpu = b->gpu;
      host.set(reg::kIrqEnable, kIrqMask);
      start_spin(host, gpu, spinner, 0x18000, sc_core::sc_time(20, sc_core::SC_US));
      const uint64_t reads = foreign->reads;
      EXPECT_GT(reads, 0u);
      host.set(reg::kReset, 1);
      launch_add_to_completion(host, *b, kernels, buffers);
    };
    Bench bench(script);
    b = &bench;
    ForeignMemory memory("foreign");
    foreign = &memory;
    bench.gpu.memory.bind(memory.socket);
    kernels = bench.gpu.load_program(testing::program_of(testing::kGpuKernels));
    spinner = bench.gpu.load_program(testing::program_of(testing::kSpinKernel));
    buffers = setup_add_in(memory.memory, 9);
    // spin's buffer at 0x18000 (zeroed), its parameters at 0x18400.
    const uint64_t buf = 0x18100;
    const uint32_t rounds = 1000000;
    uint8_t params[12];
    std::memcpy(params, &buf, 8);
    std::memcpy(params + 8, &rounds, 4);
    memory.memory.write(0x18000, params, sizeof params);
    sc_core::sc_start();
    EXPECT_TRUE(bench.host.finished);
    testing::expect_add(memory.memory, buffers.out, 9);
  });
}

// The SystemC reports made while it lives (warnings only; others go to the
// default handler), restoring the handler after.
class CapturedWarnings {
 public:
  struct Report {
    std::string type, message;
  };
  CapturedWarnings() {
    reports_ = &reports;
    sc_core::sc_report_handler::set_handler(&CapturedWarnings::handle);
  }
  ~CapturedWarnings() {
    sc_core::sc_report_handler::set_handler(sc_core::sc_report_handler::default_handler);
    reports_ = nullptr;
  }
  std::vector<Report> reports;

 private:
  static void handle(const sc_core::sc_report& r, const sc_core::sc_actions& actions) {
    if (r.get_severity() == sc_core::SC_WARNING && reports_)
      return reports_->push_back({r.get_msg_type(), r.get_msg()});
    sc_core::sc_report_handler::default_handler(r, actions);
  }
  static inline std::vector<Report>* reports_ = nullptr;
};

TEST(GpuReports, EveryRefusalAndFaultIsAWarningNamedAfterTheInstanceWithTheErrorText) {
  in_child_process([] {
    CapturedWarnings warnings;
    Bench* b = nullptr;
    uint32_t handle = 0;
    std::vector<std::string> texts;  // last_error() after each refusal or fault
    auto script = [&](ScriptHost& host) {
      Gpu& gpu = b->gpu;
      host.set(reg::kIrqEnable, kIrqMask);
      host.set(reg::kLaunch, 1);  // PROGRAM = 0
      texts.push_back(gpu.last_error());
      host.set(reg::kCommand, 9);  // no such command
      texts.push_back(gpu.last_error());
      host.set(reg::kIrqStatus, kIrqMask);  // acknowledge both refusals
      settle();
      host.set(reg::kProgram, handle);
      host.set(reg::kKernel, entry(gpu, handle, "crash"));
      host.set(reg::kGridX, 1);
      host.set(reg::kBlockX, 32);
      host.set(reg::kLaunch, 1);
      wait_irq(*b);
      EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::Fault));
      texts.push_back(gpu.last_error());
      host.set(reg::kReset, 1);
      EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::Idle));
    };
    Bench bench(script);
    b = &bench;
    handle = bench.gpu.load_program(testing::program_of(testing::kGpuKernels));
    sc_core::sc_start();
    EXPECT_TRUE(bench.host.finished);
    ASSERT_EQ(texts.size(), 3u);
    EXPECT_EQ(texts[0], "launch: PROGRAM = 0 is not a program handle (loaded: 1..1)");
    EXPECT_EQ(texts[1].rfind("command: COMMAND = 9 is not a command", 0), 0u) << texts[1];
    EXPECT_NE(texts[2].find("kernel 'crash'"), std::string::npos) << texts[2];
    // One warning per event, typed with the instance's name, saying what the registers say.
    ASSERT_EQ(warnings.reports.size(), 3u);
    for (size_t i = 0; i < 3; ++i) {
      EXPECT_EQ(warnings.reports[i].type, bench.gpu.name()) << i;
      EXPECT_NE(warnings.reports[i].message.find(texts[i]), std::string::npos)
          << warnings.reports[i].message;
    }
  });
}

}  // namespace
}  // namespace warptlm
