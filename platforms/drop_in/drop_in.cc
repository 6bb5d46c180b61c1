// A SystemC top of your own with warptlm GPUs in it, built against the
// installed package only (CMakeLists.txt: find_package; Makefile: pkg-config).
// Two GPUs with their own configurations (the `small` preset, and a
// configuration file) each get a host that launches a kernel through the
// control registers and waits for the interrupt; both run at the same time.
//
//   drop_in [CONFIG.yaml|CONFIG.json]
//
// Prints one line per GPU and exits with 0 when both computed the right values.
#include <warptlm/warptlm.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

namespace {

// x[i] *= k for i < n: what a CUDA compiler emits for a one-line kernel.
const char* const kScalePtx = R"(
.version 6.4
.target sm_70
.address_size 64
.visible .entry scale(.param .u64 p_x, .param .u32 p_n, .param .u32 p_k)
{
  .reg .pred %p<2>;
  .reg .b32 %r<9>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [p_x];
  ld.param.u32 %r1, [p_n];
  ld.param.u32 %r2, [p_k];
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mov.u32 %r5, %tid.x;
  mad.lo.s32 %r6, %r3, %r4, %r5;
  setp.ge.s32 %p1, %r6, %r1;
  @%p1 bra DONE;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.s32 %rd3, %r6, 4;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.u32 %r7, [%rd4];
  mul.lo.s32 %r8, %r7, %r2;
  st.global.u32 [%rd4], %r8;
DONE:
  ret;
}
)";

constexpr uint32_t kValues = 1000;

// One GPU with its host: the kernel loaded, x = 0, 1, 2, ... in the GPU's
// memory, the parameters written where the host tells the GPU to read them.
struct Node {
  Node(const std::string& name, const warptlm::PlatformConfig& config, uint32_t factor)
      : gpu((name + "_gpu").c_str(), config), sms(config.num_sms), factor(factor) {
    const warptlm::Program program = warptlm::finalize(warptlm::parse_ptx(kScalePtx, "scale.ptx"));
    const warptlm::Function* kernel = program.module.find_function("scale");
    const uint32_t handle = gpu.load_program(program);
    warptlm::DeviceMemory& memory = gpu.default_store();
    std::vector<uint32_t> x(kValues);
    for (uint32_t i = 0; i < kValues; ++i) x[i] = i;
    x_address = memory.allocate(x.size() * 4, "x");
    memory.write(x_address, x.data(), x.size() * 4);
    // The parameter buffer as the PTX declares it: u64 x, u32 n, u32 k.
    uint8_t params[16];
    std::memcpy(params, &x_address, 8);
    std::memcpy(params + 8, &kValues, 4);
    std::memcpy(params + 12, &factor, 4);
    const uint64_t param_address = memory.allocate(sizeof params, "parameters");
    memory.write(param_address, params, sizeof params);

    warptlm::HostLaunch launch;
    launch.program = handle;
    launch.kernel = static_cast<uint32_t>(kernel->begin);
    launch.grid = warptlm::Dim3{(kValues + 127) / 128, 1, 1};
    launch.block = warptlm::Dim3{128, 1, 1};
    launch.param_address = param_address;
    launch.stop_simulation = false;  // the top stops when every host is done
    host = std::make_unique<warptlm::HostDriver>((name + "_host").c_str(), launch);
    host->control.bind(gpu.control);
    gpu.irq.bind(irq);
    host->irq.bind(irq);
  }

  bool check(const char* label) {
    std::vector<uint32_t> x(kValues);
    gpu.default_store().read(x_address, x.data(), x.size() * 4);
    uint32_t wrong = 0;
    for (uint32_t i = 0; i < kValues; ++i) wrong += x[i] != i * factor;
    const bool ok = host->completed() && host->status() == warptlm::GpuStatus::Done && wrong == 0;
    std::printf("%s (%s, %u SMs): %u values scaled by %u in %llu cycles: %s\n", gpu.name(), label,
                sms, kValues, factor, static_cast<unsigned long long>(host->launch_cycles()),
                ok ? "PASS" : "FAIL");
    if (!ok && !gpu.last_error().empty()) std::printf("  %s\n", gpu.last_error().c_str());
    return ok;
  }

  warptlm::Gpu gpu;
  unsigned sms;
  uint32_t factor;
  uint64_t x_address = 0;
  std::unique_ptr<warptlm::HostDriver> host;
  sc_core::sc_signal<bool> irq;
};

// Stops the simulation when every host is done.
SC_MODULE(Supervisor) {
  std::vector<warptlm::HostDriver*> hosts;
  SC_CTOR(Supervisor) { SC_THREAD(run); }
  void run() {
    for (warptlm::HostDriver* h : hosts)
      while (!h->finished()) wait(h->finished_event());
    sc_core::sc_stop();
  }
};

}  // namespace

int sc_main(int argc, char* argv[]) {
  try {
    std::printf("warptlm %s\n", warptlm::version());
    const warptlm::PlatformConfig second =
        argc > 1 ? warptlm::load_config_file(argv[1]) : warptlm::preset("fermi");
    Node a("small", warptlm::preset("small"), 3);
    Node b("second", second, 5);
    Supervisor supervisor("supervisor");
    supervisor.hosts = {a.host.get(), b.host.get()};
    sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                            sc_core::SC_DO_NOTHING);
    sc_core::sc_start();
    const bool ok_a = a.check("preset small");
    const bool ok_b = b.check(argc > 1 ? argv[1] : "preset fermi");
    return ok_a && ok_b ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "drop_in: %s\n", e.what());
    return 2;
  }
}
