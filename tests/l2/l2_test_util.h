// Shared set-up for the L2 slice tests: a small slice whose sets and timing
// are easy to follow by hand, a bench wiring traffic generator -> slice ->
// memory target, and an interposer that marks chosen requests as atomics
// (the traffic generator issues loads and stores only).
#pragma once

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "common/tlm_testbench.h"
#include "l2/l2_slice.h"

namespace warptlm::l2_test {

inline sc_core::sc_time ns(double v) { return sc_core::sc_time(v, sc_core::SC_NS); }

// 512 bytes, 2 ways, 64-byte lines: 4 sets, set = (addr / 64) % 4, so 0x1000,
// 0x1100, 0x1200, ... (every 256 bytes) share set 0. 2 MSHRs, 10-cycle hits,
// 1 ns cycles. The memory behind it answers 100 ns after each request.
inline L2Params small_l2(const std::string& policy = "write_back") {
  L2Params p;
  p.cache.size = 512;
  p.cache.assoc = 2;
  p.cache.line = 64;
  p.cache.mshrs = 2;
  p.cache.latency = 10;
  p.cache.write_policy = policy;
  p.index = 3;
  p.cycle = ns(1);
  return p;
}

inline testing::TrafficRequest rd(double t, uint64_t addr, unsigned bytes = 4) {
  return {ns(t), tlm::TLM_READ_COMMAND, addr, bytes, {}};
}
inline testing::TrafficRequest wr(double t, uint64_t addr, unsigned bytes = 4,
                                  std::vector<uint8_t> data = {}) {
  return {ns(t), tlm::TLM_WRITE_COMMAND, addr, bytes, std::move(data)};
}

// Forwards every call both ways, setting GpuExtension::kind to Atomic on the
// requests whose tag (the generator's request index) is listed, and adding
// `request_delay` to each BEGIN_REQ's annotation (a request that arrives later
// than it was sent, as the base protocol allows).
struct Interposer : sc_core::sc_module {
  tlm_utils::simple_target_socket<Interposer> in;
  tlm_utils::simple_initiator_socket<Interposer> out;
  std::set<uint64_t> atomic_tags;
  sc_core::sc_time request_delay;

  Interposer(sc_core::sc_module_name n, std::set<uint64_t> tags = {})
      : sc_module(n), in("in"), out("out"), atomic_tags(std::move(tags)) {
    in.register_nb_transport_fw(this, &Interposer::fw);
    out.register_nb_transport_bw(this, &Interposer::bw);
  }
  tlm::tlm_sync_enum fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
    GpuExtension* ext = t.get_extension<GpuExtension>();
    if (ph == tlm::BEGIN_REQ && ext && atomic_tags.count(ext->tag)) ext->kind = AccessKind::Atomic;
    if (ph == tlm::BEGIN_REQ) d += request_delay;
    return out->nb_transport_fw(t, ph, d);
  }
  tlm::tlm_sync_enum bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
    return in->nb_transport_bw(t, ph, d);
  }
};

// Generator -> slice -> 64 KiB test memory at address 0 with a 100 ns latency.
struct Bench {
  testing::TrafficGenerator gen;
  L2Slice l2;
  testing::MemoryTarget mem;

  Bench(std::vector<testing::TrafficRequest> reqs, const L2Params& params,
        testing::TargetStyle style = testing::TargetStyle::Queued, unsigned data_bytes = 64)
      : gen("gen", std::move(reqs), data_bytes, 7),
        l2("l2", params),
        mem("mem", testing::TestMemory(0, 0x10000), ns(100), style) {
    gen.socket.bind(l2.in);
    l2.out.bind(mem.socket);
  }
  // Memory arrivals as "R@t:0xaddr" / "W@t:0xaddr" strings, for compact checks.
  std::vector<std::string> arrivals() const {
    std::vector<std::string> v;
    for (const testing::TargetArrival& a : mem.arrivals) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%c@%g:0x%llx",
                    a.command == tlm::TLM_WRITE_COMMAND ? 'W' : 'R', a.time.to_seconds() * 1e9,
                    static_cast<unsigned long long>(a.address));
      v.push_back(buf);
    }
    return v;
  }
};

}  // namespace warptlm::l2_test
