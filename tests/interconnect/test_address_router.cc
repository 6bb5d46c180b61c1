// AddressRouter: windows, local addresses, unmapped accesses, overlapping
// maps, and DMI and debug transport through it.
#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstring>

#include "common/systemc_child.h"
#include "common/tlm_memory_target.h"
#include "interconnect/address_router.h"

namespace warptlm {
namespace {

using testing::in_child_process;

TEST(AddressRouter, RefusesEmptyWrappingAndOverlappingWindowsNamingThem) {
  in_child_process([] {
    AddressRouter r("bus");
    r.map("ram", 0x1000, 0x1000);
    auto refused = [&](uint64_t base, uint64_t size) {
      try {
        r.map("rom", base, size);
      } catch (const std::invalid_argument& e) {
        return std::string(e.what());
      }
      return std::string();
    };
    EXPECT_EQ(refused(0x1800, 0x1000),
              "bus: window rom [0x1800, 0x2800) overlaps ram [0x1000, 0x2000)");
    EXPECT_EQ(refused(0x3000, 0), "bus: window rom [0x3000, 0x3000) is empty");
    EXPECT_NE(refused(~uint64_t(0) - 1, 0x10).find("wraps"), std::string::npos);
    EXPECT_EQ(refused(0x2000, 0x1000), "");  // adjacent is fine
  });
}

struct Initiator : sc_core::sc_module {
  explicit Initiator(sc_core::sc_module_name n) : sc_module(n), socket("socket") {}
  tlm::tlm_response_status access(tlm::tlm_command cmd, uint64_t address, uint32_t& v) {
    tlm::tlm_generic_payload p;
    p.set_command(cmd);
    p.set_address(address);
    p.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
    p.set_data_length(4);
    p.set_streaming_width(4);
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(p, delay);
    EXPECT_EQ(p.get_address(), address);  // the initiator's address comes back
    last_delay = delay;
    return p.get_response_status();
  }
  tlm_utils::simple_initiator_socket<Initiator> socket;
  sc_core::sc_time last_delay;
};

TEST(AddressRouter, RoutesToLocalAddressesAndAnswersUnmappedOnesWithAnAddressError) {
  in_child_process([] {
    Initiator cpu("cpu");
    AddressRouter bus("bus", sc_core::sc_time(3, sc_core::SC_NS));
    testing::MemoryTarget a("a", testing::TestMemory(0, 0x100),
                            sc_core::sc_time(10, sc_core::SC_NS));
    testing::MemoryTarget b("b", testing::TestMemory(0, 0x100),
                            sc_core::sc_time(10, sc_core::SC_NS));
    bus.map("a", 0x8000, 0x100);
    bus.map("b", 0x9000, 0x100);
    cpu.socket.bind(bus.in);
    bus.out.bind(a.socket);
    bus.out.bind(b.socket);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    uint32_t v = 0x12345678;
    EXPECT_EQ(cpu.access(tlm::TLM_WRITE_COMMAND, 0x9010, v), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(cpu.last_delay,
              sc_core::sc_time(13, sc_core::SC_NS));  // the bus's 3 + the memory's 10
    uint32_t seen = 0;
    EXPECT_TRUE(b.memory.read(0x10, &seen, 4));  // local address 0x10 of b
    EXPECT_EQ(seen, 0x12345678u);
    EXPECT_EQ(cpu.access(tlm::TLM_READ_COMMAND, 0x8ffc, v), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    const nlohmann::json s = bus.stats();
    EXPECT_EQ(s["windows"]["b"]["writes"].get<uint64_t>(), 1u);
    EXPECT_EQ(s["windows"]["b"]["bytes"].get<uint64_t>(), 4u);
    EXPECT_EQ(s["unmapped"].get<uint64_t>(), 1u);
    // Debug transport: inside a window, and refused past its end.
    tlm::tlm_generic_payload p;
    uint8_t bytes[8] = {};
    p.set_command(tlm::TLM_READ_COMMAND);
    p.set_data_ptr(bytes);
    p.set_data_length(4);
    p.set_address(0x9010);
    EXPECT_EQ(cpu.socket->transport_dbg(p), 4u);
    EXPECT_EQ(std::memcmp(bytes, &seen, 4), 0);
    p.set_address(0x90fc);
    p.set_data_length(8);
    EXPECT_EQ(cpu.socket->transport_dbg(p), 0u);
    // DMI: MemoryTarget grants none; the refusal covers the gap between windows when unmapped.
    tlm::tlm_dmi dmi;
    p.set_address(0x8800);
    EXPECT_FALSE(cpu.socket->get_direct_mem_ptr(p, dmi));
    EXPECT_EQ(dmi.get_start_address(), 0x8100u);
    EXPECT_EQ(dmi.get_end_address(), 0x8fffu);
  });
}

}  // namespace
}  // namespace warptlm
