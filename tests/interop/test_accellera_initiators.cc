// The GPU's control socket driven by Accellera's example initiators (SystemC's
// TLM examples, built from the copy Debian's libsystemc-doc installs): the
// blocking lt_initiator and the two non-blocking ones, at_initiator_explicit
// (END_REQ and BEGIN_RESP as separate timing points) and
// at_initiator_annotated, whose nb_transport calls reach the GPU's
// b_transport through simple_target_socket's nb-to-b adapter. Firmware hands
// them payloads through their request FIFO, as Accellera's traffic generator
// does, and drives a whole launch: kernel by index, launch, interrupt,
// acknowledge, then the error paths (refused launch and its ERROR_TEXT, a
// burst, an address past the window), with the GPU in both coding styles.
#include <gtest/gtest.h>

#ifdef WARPTLM_TLM_EXAMPLES
#include "at_initiator_annotated.h"
#include "at_initiator_explicit.h"
#include "lt_initiator.h"
#include "reporting.h"
#endif

#include <functional>
#include <memory>
#include <string>

#include "common/systemc_child.h"
#include "gpu/gpu_bench.h"

namespace warptlm {
namespace {

#ifdef WARPTLM_TLM_EXAMPLES

using testing::in_child_process;
using gp_ptr = tlm::tlm_generic_payload*;

// Register accesses through an example initiator's FIFOs, one payload at a
// time, from the firmware's thread.
struct Firmware : sc_core::sc_module {
  Firmware(sc_core::sc_module_name n, std::function<void(Firmware&)> script)
      : sc_module(n), request("request"), response("response"), script_(std::move(script)) {
    SC_HAS_PROCESS(Firmware);
    SC_THREAD(run);
  }
  tlm::tlm_response_status access(tlm::tlm_command cmd, uint64_t offset, uint32_t& value,
                                  unsigned length = 4) {
    uint8_t bytes[8] = {};
    for (int i = 0; i < 4; ++i) bytes[i] = static_cast<uint8_t>(value >> (8 * i));
    payload_.set_command(cmd);
    payload_.set_address(offset);
    payload_.set_data_ptr(bytes);
    payload_.set_data_length(length);
    payload_.set_streaming_width(length);
    payload_.set_byte_enable_ptr(nullptr);
    payload_.set_dmi_allowed(false);
    payload_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    request->write(&payload_);
    EXPECT_EQ(response->read(), &payload_);  // the initiator gives it back when done
    value = 0;
    for (int i = 0; i < 4; ++i) value |= uint32_t(bytes[i]) << (8 * i);
    ++accesses;
    return payload_.get_response_status();
  }
  void set(uint64_t offset, uint32_t value) {
    EXPECT_EQ(access(tlm::TLM_WRITE_COMMAND, offset, value), tlm::TLM_OK_RESPONSE) << offset;
  }
  uint32_t read(uint64_t offset) {
    uint32_t value = 0;
    EXPECT_EQ(access(tlm::TLM_READ_COMMAND, offset, value), tlm::TLM_OK_RESPONSE) << offset;
    return value;
  }
  void run() {
    script_(*this);
    finished = true;
  }

  sc_core::sc_port<sc_core::sc_fifo_out_if<gp_ptr>> request;
  sc_core::sc_port<sc_core::sc_fifo_in_if<gp_ptr>> response;
  bool finished = false;
  unsigned accesses = 0;

 private:
  std::function<void(Firmware&)> script_;
  tlm::tlm_generic_payload payload_;
};

enum class Initiator { Lt, AtExplicit, AtAnnotated };

const sc_core::sc_time kNs(1, sc_core::SC_NS);

// The firmware, one example initiator between it and the GPU, the GPU.
template <class I>
struct Platform {
  Platform(std::unique_ptr<I> initiator, std::function<void(Firmware&)> script,
           const PlatformConfig& config)
      : gpu("gpu", config),
        irq("irq"),
        firmware("firmware", std::move(script)),
        requests("requests"),
        responses("responses"),
        initiator(std::move(initiator)) {
    gpu.irq.bind(irq);
    firmware.request.bind(requests);
    firmware.response.bind(responses);
    this->initiator->request_in_port.bind(requests);
    this->initiator->response_out_port.bind(responses);
    this->initiator->initiator_socket.bind(gpu.control);
  }
  Gpu gpu;
  sc_core::sc_signal<bool> irq;
  Firmware firmware;
  sc_core::sc_fifo<gp_ptr> requests, responses;
  std::unique_ptr<I> initiator;
};

// The driver sequence, then the error paths.
void drive(Firmware& fw, Gpu& gpu, sc_core::sc_signal<bool>& irq, uint32_t handle,
           const testing::AddBuffers& a) {
  EXPECT_EQ(fw.read(reg::kId), kGpuId);
  EXPECT_EQ(fw.read(reg::kVersion), kGpuVersion);
  fw.set(reg::kIrqEnable, kIrqMask);
  fw.set(reg::kProgram, handle);
  fw.set(reg::kKernelIndex, 0);
  fw.set(reg::kCommand, uint32_t(GpuCommand::KernelByIndex));
  EXPECT_EQ(fw.read(reg::kStatus), uint32_t(GpuStatus::Done)) << gpu.last_error();
  EXPECT_EQ(fw.read(reg::kKernel), testing::entry(gpu, handle, "add"));
  fw.set(reg::kGridX, 2);
  fw.set(reg::kBlockX, 32);
  fw.set(reg::kParamAddrLo, static_cast<uint32_t>(a.params));
  fw.set(reg::kParamAddrHi, static_cast<uint32_t>(a.params >> 32));
  fw.set(reg::kLaunch, 1);
  while (!irq.read()) sc_core::wait(irq.value_changed_event());
  EXPECT_EQ(fw.read(reg::kStatus), uint32_t(GpuStatus::Done)) << gpu.last_error();
  EXPECT_GT(fw.read(reg::kLaunchCyclesLo), 0u);
  EXPECT_EQ(fw.read(reg::kIrqStatus), kIrqDone);
  fw.set(reg::kIrqStatus, kIrqDone);
  testing::settle();
  EXPECT_FALSE(irq.read());

  // A refused launch: STATUS, ERROR, the interrupt and the text, all through the initiator.
  fw.set(reg::kProgram, 7);
  fw.set(reg::kLaunch, 1);
  EXPECT_EQ(fw.read(reg::kStatus), uint32_t(GpuStatus::LaunchError));
  EXPECT_EQ(fw.read(reg::kError), uint32_t(GpuError::BadProgram));
  EXPECT_EQ(testing::error_text(fw), "launch: PROGRAM = 7 is not a program handle (loaded: 1..1)");
  testing::settle();
  EXPECT_TRUE(irq.read());
  fw.set(reg::kIrqStatus, kIrqError);

  // Error responses come back through the initiator to its user.
  uint32_t v = 0;
  EXPECT_EQ(fw.access(tlm::TLM_READ_COMMAND, reg::kStatus, v, 8), tlm::TLM_BURST_ERROR_RESPONSE);
  EXPECT_EQ(fw.access(tlm::TLM_READ_COMMAND, reg::kWindowBytes, v),
            tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(fw.read(reg::kId), kGpuId);  // and the GPU answers on
}

template <class I>
void run_with(std::function<std::unique_ptr<I>()> make, const std::string& coding_style) {
  in_child_process([&] {
    REPORT_DISABLE_ALL_REPORTING();
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    sc_core::sc_report_handler::set_actions("gpu", sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
    PlatformConfig config = preset("small");
    config.coding_style = coding_style;
    Platform<I>* p = nullptr;
    uint32_t handle = 0;
    testing::AddBuffers buffers;
    Platform<I> platform(
        make(), [&](Firmware& fw) { drive(fw, p->gpu, p->irq, handle, buffers); }, config);
    p = &platform;
    handle = platform.gpu.load_program(testing::program_of(testing::kGpuKernels));
    buffers = testing::setup_add(platform.gpu, 21);
    sc_core::sc_start();
    ASSERT_TRUE(platform.firmware.finished);
    EXPECT_GT(platform.firmware.accesses, 30u);
    testing::expect_add(platform.gpu.default_store(), buffers.out, 21);
  });
}

class AccelleraInitiators : public ::testing::TestWithParam<std::tuple<Initiator, const char*>> {};

TEST_P(AccelleraInitiators, DriveALaunchAndTheErrorPathsThroughTheControlSocket) {
  const auto [initiator, coding_style] = GetParam();
  switch (initiator) {
    case Initiator::Lt:
      return run_with<lt_initiator>([] { return std::make_unique<lt_initiator>("initiator", 1); },
                                    coding_style);
    case Initiator::AtExplicit:
      return run_with<at_initiator_explicit>(
          [] { return std::make_unique<at_initiator_explicit>("initiator", 1, 5 * kNs); },
          coding_style);
    case Initiator::AtAnnotated:
      return run_with<at_initiator_annotated>(
          [] { return std::make_unique<at_initiator_annotated>("initiator", 1, 5 * kNs); },
          coding_style);
  }
}

std::string case_name(const ::testing::TestParamInfo<AccelleraInitiators::ParamType>& info) {
  static const char* const names[] = {"lt_initiator", "at_initiator_explicit",
                                      "at_initiator_annotated"};
  return std::string(names[int(std::get<0>(info.param))]) + "_" + std::get<1>(info.param);
}

INSTANTIATE_TEST_SUITE_P(InitiatorsAndCodingStyles, AccelleraInitiators,
                         ::testing::Combine(::testing::Values(Initiator::Lt, Initiator::AtExplicit,
                                                              Initiator::AtAnnotated),
                                            ::testing::Values("at", "lt")),
                         case_name);

#else

TEST(AccelleraInitiators, NeedSystemCsTlmExamples) {
  GTEST_SKIP() << "SystemC's TLM examples were not found at configure time (Debian: "
                  "libsystemc-doc; scripts/setup.sh installs it)";
}

#endif

}  // namespace
}  // namespace warptlm
