// MemoryPort: the L2 slices' traffic merged onto one socket, in "at" mode (also against a target
// that registered only b_transport on a simple_target_socket) and "lt" mode (against a foreign
// memory with only b_transport on a plain socket, bound through a parent's socket as the GPU top
// binds it); responses back to the right slice; error responses unchanged; debug access; and the
// write refresh that keeps a stale write from overwriting newer memory. Cycle = 1 ns, memory
// latency 10 ns, memory at [0x100, 0x200).
#include <gtest/gtest.h>

#include <stdexcept>

#include "common/tlm_testbench.h"
#include "interconnect/memory_port.h"

namespace warptlm {
namespace {

using sc_core::sc_time;
using testing::BlockingMemory;
using testing::in_child_process;
using testing::MemoryTarget;
using testing::TargetStyle;
using testing::TestMemory;
using testing::TrafficGenerator;
using testing::TrafficRequest;
constexpr auto R = tlm::TLM_READ_COMMAND;
constexpr auto W = tlm::TLM_WRITE_COMMAND;

sc_time ns(double v) { return sc_time(v, sc_core::SC_NS); }

const std::vector<uint8_t> kA = {1, 2, 3, 4}, kB = {5, 6, 7, 8};

// The GPU top's view: its own initiator socket, to which the port binds hierarchically.
struct Top : sc_core::sc_module {
  tlm::tlm_initiator_socket<> memory;
  MemoryPort port;
  Top(sc_core::sc_module_name name, const std::string& protocol)
      : sc_module(name), memory("memory"), port("port", 2, protocol, ns(1)) {
    port.out.bind(memory);
  }
};

// Two slices each read one line at time 0 (slice 0: 0x100 holding kA, slice 1: 0x140 holding kB)
// and slice 1 reads 0x1fe, crossing the end of memory, at 1 ns. Returns {slice 0's answer time,
// slice 1's}, after checking data and status.
template <typename Memory>
void two_slices(Top& top, Memory& mem, const std::vector<double>& want) {
  TrafficGenerator l2s0("l2s0", {{ns(0), R, 0x100, 4, {}}}, 64, 0);
  TrafficGenerator l2s1("l2s1", {{ns(0), R, 0x140, 4, {}}, {ns(1), R, 0x1fe, 4, {}}}, 64, 1);
  mem.memory.write(0x100, kA.data(), 4);
  mem.memory.write(0x140, kB.data(), 4);
  l2s0.socket.bind(top.port.in);
  l2s1.socket.bind(top.port.in);
  top.memory.bind(mem.socket);
  sc_core::sc_start();
  ASSERT_EQ(l2s0.completed(), 1u);
  ASSERT_EQ(l2s1.completed(), 2u);
  EXPECT_EQ(l2s0.result(0).data, kA);  // each answer went back to its own slice
  EXPECT_EQ(l2s1.result(0).data, kB);
  EXPECT_EQ(l2s1.result(1).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(l2s0.result(0).responded, ns(want[0]));
  EXPECT_EQ(l2s1.result(0).responded, ns(want[1]));
  EXPECT_EQ(l2s1.result(1).responded, ns(want[2]));
  EXPECT_EQ(top.port.stats().reads, 3u);
  EXPECT_EQ(top.port.stats().responses, 3u);
  EXPECT_EQ(top.port.stats().error_responses, 1u);
  EXPECT_EQ(l2s0.pool().outstanding() + l2s1.pool().outstanding(), 0u);
  EXPECT_EQ(l2s0.protocol_errors() + l2s1.protocol_errors(), 0u);
}

// "at" against an AT memory: the link takes one request per cycle (0, 1, 2 for the requests
// ready at 0, 0, 1), each answered 10 ns later: 10, 11, 12.
TEST(MemoryPort, AtModeAgainstAnAtMemory) {
  in_child_process([] {
    Top top("top", "at");
    MemoryTarget mem("mem", TestMemory(0x100, 0x100), ns(10));
    two_slices(top, mem, {10, 11, 12});
    EXPECT_EQ(mem.protocol_errors(), 0u);
  });
}

// "at" against a simple_target_socket that registered only b_transport: the socket's adapter
// never sends END_REQ, so each request waits for the previous response: 10, 20, 30.
TEST(MemoryPort, AtModeAgainstABlockingOnlySimpleTargetSocket) {
  in_child_process([] {
    Top top("top", "at");
    MemoryTarget mem("mem", TestMemory(0x100, 0x100), ns(10), TargetStyle::BlockingOnly);
    two_slices(top, mem, {10, 20, 30});
  });
}

// "lt" against the foreign b_transport-only memory on a plain socket: b_transport calls overlap
// (one worker thread each), leaving one per cycle at 0, 1, 2 and answered at 10, 11, 12.
TEST(MemoryPort, LtModeAgainstAForeignBlockingMemory) {
  in_child_process([] {
    Top top("top", "lt");
    BlockingMemory mem("mem", TestMemory(0x100, 0x100), ns(10));
    two_slices(top, mem, {10, 11, 12});
    EXPECT_EQ(mem.nb_calls, 0u);
    ASSERT_EQ(mem.arrivals.size(), 3u);
    EXPECT_EQ(mem.arrivals[1].time, ns(1));
    EXPECT_EQ(mem.arrivals[2].time, ns(2));
  });
}

TEST(MemoryPort, DebugReadAndWrite) {
  in_child_process([] {
    Top top("top", "lt");
    BlockingMemory mem("mem", TestMemory(0x100, 0x100), ns(10));
    TrafficGenerator l2s0("l2s0", {}), l2s1("l2s1", {});
    l2s0.socket.bind(top.port.in);
    l2s1.socket.bind(top.port.in);
    top.memory.bind(mem.socket);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);  // finish elaboration

    const uint8_t data[6] = {9, 8, 7, 6, 5, 4};
    EXPECT_TRUE(top.port.write(0x1f0, data, 6));
    uint8_t got[6] = {};
    EXPECT_TRUE(mem.memory.read(0x1f0, got, 6));
    EXPECT_EQ(got[5], 4);
    uint8_t back[6] = {};
    EXPECT_TRUE(top.port.read(0x1f0, back, 6));
    EXPECT_EQ(std::vector<uint8_t>(back, back + 6), std::vector<uint8_t>(data, data + 6));
    EXPECT_FALSE(top.port.read(0x1fe, back, 4));                 // crosses the end of memory
    EXPECT_FALSE(top.port.write(0x080, data, 4));                // below it
    EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::SC_ZERO_TIME);  // zero time
    EXPECT_EQ(top.port.stats().functional.debug_reads, 2u);
    EXPECT_EQ(top.port.stats().functional.debug_writes, 2u);
  });
}

// Execute-at-issue already wrote kB to 0x100 when a timing write carrying older bytes (kA) reaches
// the port: the port refreshes the write from memory, so memory keeps kB (and a read after it
// sees kB). A write outside memory cannot be refreshed and comes back with the address error.
template <typename Memory>
void stale_write(Top& top, Memory& mem) {
  TrafficGenerator l2s0("l2s0", {{ns(0), W, 0x100, 4, kA}, {ns(0), R, 0x100, 4, {}}});
  TrafficGenerator l2s1("l2s1", {{ns(0), W, 0x300, 4, kA}});
  mem.memory.write(0x100, kB.data(), 4);
  l2s0.socket.bind(top.port.in);
  l2s1.socket.bind(top.port.in);
  top.memory.bind(mem.socket);
  sc_core::sc_start();
  uint8_t got[4];
  mem.memory.read(0x100, got, 4);
  EXPECT_EQ(std::vector<uint8_t>(got, got + 4), kB);
  EXPECT_EQ(mem.arrivals.at(0).command, W);  // the write did reach memory
  EXPECT_EQ(l2s0.result(0).status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(l2s0.result(1).data, kB);
  EXPECT_EQ(l2s1.result(0).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(top.port.stats().writes, 2u);
  EXPECT_EQ(top.port.stats().writes_refreshed, 1u);
  EXPECT_EQ(top.port.stats().refresh_failures, 1u);
}

TEST(MemoryPort, StaleWriteDoesNotOverwriteNewerMemoryAt) {
  in_child_process([] {
    Top top("top", "at");
    MemoryTarget mem("mem", TestMemory(0x100, 0x100), ns(10));
    stale_write(top, mem);
  });
}

TEST(MemoryPort, StaleWriteDoesNotOverwriteNewerMemoryLt) {
  in_child_process([] {
    Top top("top", "lt");
    BlockingMemory mem("mem", TestMemory(0x100, 0x100), ns(10));
    stale_write(top, mem);
  });
}

// A store executed at issue writes kC to 0x104 at 5 ns while the port's write of the line
// [0x100, 0x110) (refreshed at 0 ns, so holding kB at 0x104) is still in flight to a memory that
// takes a write's data when it responds, at 10 ns, as Accellera's AT examples do. The store tells
// the port (global_written), which refreshes the write again: memory ends with kC, not the stale
// kB. A store elsewhere ([0x180, 0x184)) leaves the write alone.
struct LateStore : sc_core::sc_module {
  SC_HAS_PROCESS(LateStore);
  LateStore(sc_core::sc_module_name name, MemoryPort& port, TestMemory& memory)
      : sc_module(name), port_(port), memory_(memory) {
    SC_THREAD(run);
  }
  void run() {
    wait(ns(5));
    const uint8_t other[4] = {0, 0, 0, 1};
    memory_.write(0x180, other, 4);
    port_.global_written(0x180, 0x184);
    memory_.write(0x104, kC.data(), 4);
    port_.global_written(0x104, 0x108);
  }
  MemoryPort& port_;
  TestMemory& memory_;
  static inline const std::vector<uint8_t> kC = {9, 10, 11, 12};
};

TEST(MemoryPort, AStoreWhileAWriteIsInFlightIsNotUndone) {
  in_child_process([] {
    Top top("top", "at");
    MemoryTarget mem("mem", TestMemory(0x100, 0x100), ns(10));
    TrafficGenerator l2s0("l2s0", {{ns(0), W, 0x100, 16, std::vector<uint8_t>(16, 0xee)}});
    TrafficGenerator l2s1("l2s1", {});
    LateStore store("store", top.port, mem.memory);
    mem.memory.write(0x104, kB.data(), 4);
    l2s0.socket.bind(top.port.in);
    l2s1.socket.bind(top.port.in);
    top.memory.bind(mem.socket);
    sc_core::sc_start();
    ASSERT_EQ(l2s0.completed(), 1u);
    EXPECT_EQ(l2s0.result(0).responded, ns(10));  // the data moved after the store
    uint8_t got[4];
    mem.memory.read(0x104, got, 4);
    EXPECT_EQ(std::vector<uint8_t>(got, got + 4), LateStore::kC);
    mem.memory.read(0x100, got, 4);
    EXPECT_EQ(std::vector<uint8_t>(got, got + 4), std::vector<uint8_t>(4, 0));  // never 0xee
    EXPECT_EQ(top.port.stats().writes_refreshed, 1u);
    EXPECT_EQ(top.port.stats().writes_patched, 1u);
    // Answered: a later store has no write to patch.
    top.port.global_written(0x100, 0x110);
    EXPECT_EQ(top.port.stats().writes_patched, 1u);
  });
}

TEST(MemoryPort, RejectsBadParametersByName) {
  in_child_process([] {
    auto message = [](unsigned inputs, const std::string& protocol, sc_time cycle) {
      try {
        MemoryPort port(sc_core::sc_gen_unique_name("port"), inputs, protocol, cycle);
      } catch (const std::invalid_argument& e) {
        return std::string(e.what());
      }
      return std::string("accepted");
    };
    EXPECT_NE(message(0, "at", ns(1)).find("inputs"), std::string::npos);
    EXPECT_NE(message(1, "ca", ns(1)).find("protocol"), std::string::npos);
    EXPECT_NE(message(1, "lt", sc_core::SC_ZERO_TIME).find("cycle"), std::string::npos);
  });
}

}  // namespace
}  // namespace warptlm
