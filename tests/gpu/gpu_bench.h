// The Gpu test bench shared by the Gpu tests: the small preset's GPU with a
// scripted host on its control socket, the add kernel's buffers in the
// default store or in a foreign memory, and that foreign memory.
#pragma once

#include <gtest/gtest.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstring>
#include <functional>
#include <string>

#include "common/tlm_memory_target.h"
#include "gpu/gpu.h"
#include "gpu_test_kernels.h"
#include "script_host.h"

namespace warptlm::testing {

// A platform: the small preset's GPU, its irq on a signal, a scripted host.
struct Bench {
  explicit Bench(std::function<void(ScriptHost&)> script, PlatformConfig config = preset("small"))
      : gpu("gpu", config), irq("irq"), host("host", std::move(script)) {
    gpu.irq.bind(irq);
    host.socket.bind(gpu.control);
  }
  Gpu gpu;
  sc_core::sc_signal<bool> irq;
  ScriptHost host;
};

// Lets the irq output follow the registers (two delta cycles).
inline void settle() {
  sc_core::wait(sc_core::SC_ZERO_TIME);
  sc_core::wait(sc_core::SC_ZERO_TIME);
}

inline uint32_t entry(const Gpu& gpu, uint32_t handle, const char* kernel) {
  return static_cast<uint32_t>(gpu.program(handle)->module.find_function(kernel)->begin);
}

// The ERROR_TEXT window as a driver reads it: ERROR_TEXT_LEN bytes, word by
// word, through any host with read(offset) -> uint32_t.
template <class Host>
std::string error_text(Host& host) {
  const uint32_t length = host.read(reg::kErrorTextLen);
  std::string text;
  for (uint32_t i = 0; i < length; i += 4) {
    const uint32_t w = host.read(reg::kErrorText + i);
    for (uint32_t k = 0; k < 4 && i + k < length; ++k) text += static_cast<char>(w >> (8 * k));
  }
  return text;
}

// The add kernel over 64 threads (2 CTAs of 32): out[i] = in[i] + value.
struct AddBuffers {
  uint64_t in = 0, out = 0, params = 0;
};

// Writes add's input (in[i] = 1000 i) and its parameter buffer (in at 0, out
// at 8, value at 16: 20 bytes) into any memory with write(address, bytes, n).
// `bus_offset` is added to the pointers the kernel gets, for a memory the GPU
// sees at a bus address.
template <class Memory>
void place_add(Memory& m, const AddBuffers& a, uint32_t value, uint64_t bus_offset = 0) {
  for (uint32_t i = 0; i < 64; ++i) {
    const uint32_t v = 1000 * i;
    EXPECT_TRUE(m.write(a.in + 4 * i, &v, 4)) << a.in + 4 * i;
  }
  uint8_t params[20];
  const uint64_t in = a.in + bus_offset, out = a.out + bus_offset;
  std::memcpy(params, &in, 8);
  std::memcpy(params + 8, &out, 8);
  std::memcpy(params + 16, &value, 4);
  EXPECT_TRUE(m.write(a.params, params, sizeof params)) << a.params;
}

// Expects out[i] = 1000 i + value, read from any memory with read(address, bytes, n).
template <class Memory>
void expect_add(Memory& m, uint64_t out, uint32_t value) {
  for (uint32_t i = 0; i < 64; ++i) {
    uint32_t v = 0;
    EXPECT_TRUE(m.read(out + 4 * i, &v, 4)) << out + 4 * i;
    EXPECT_EQ(v, 1000 * i + value) << i;
  }
}

// add's buffers in the GPU's default store.
inline AddBuffers setup_add(Gpu& gpu, uint32_t value) {
  DeviceMemory& mem = gpu.default_store();
  AddBuffers a;
  a.in = mem.allocate(64 * 4, "in");
  a.out = mem.allocate(64 * 4, "out");
  a.params = mem.allocate(20, "params");
  place_add(mem, a, value);
  return a;
}

inline void program_add(ScriptHost& host, const Gpu& gpu, uint32_t handle, const AddBuffers& a) {
  host.set(reg::kProgram, handle);
  host.set(reg::kKernel, entry(gpu, handle, "add"));
  host.set(reg::kGridX, 2);
  host.set(reg::kBlockX, 32);
  host.set(reg::kParamAddrLo, static_cast<uint32_t>(a.params));
  host.set(reg::kParamAddrHi, static_cast<uint32_t>(a.params >> 32));
}

// A platform memory the GPU knows nothing about: b_transport and debug
// transport only, on a simple_target_socket (which adapts the GPU's
// nb_transport calls itself), backed by 64 KB at 0x10000.
struct ForeignMemory : sc_core::sc_module {
  explicit ForeignMemory(sc_core::sc_module_name n) : sc_module(n), socket("socket") {
    socket.register_b_transport(this, &ForeignMemory::b_transport);
    socket.register_transport_dbg(this, &ForeignMemory::transport_dbg);
  }
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
    ++(p.is_read() ? reads : writes);
    memory.execute(p);
    if (fail_transactions) p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    delay += sc_core::sc_time(50, sc_core::SC_NS);
  }
  unsigned transport_dbg(tlm::tlm_generic_payload& p) { return memory.debug(p); }
  tlm_utils::simple_target_socket<ForeignMemory> socket;
  TestMemory memory{0x10000, 0x10000};
  uint64_t reads = 0, writes = 0;
  bool fail_transactions = false;  // answer every timing transaction with an error
};

// The add kernel's buffers placed by the platform in the foreign memory.
inline AddBuffers setup_add_in(TestMemory& mem, uint32_t value) {
  const AddBuffers a{0x10000, 0x10400, 0x10800};
  place_add(mem, a, value);
  return a;
}

}  // namespace warptlm::testing
