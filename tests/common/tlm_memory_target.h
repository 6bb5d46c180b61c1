// Test bench memory targets. TestMemory is the backing store (a zeroed byte window or a
// DeviceMemory) with the generic payload's access rules. MemoryTarget is an AT target with a fixed
// latency on a simple_target_socket: it can answer with every legal return (END_REQ at once or
// later, early completion, response on the return path), register only b_transport so the
// socket adapts AT initiators to it, or only nb_transport so it adapts blocking initiators.
// BlockingMemory is the foreign memory: a plain tlm_target_socket offering only b_transport (and
// debug transport).
#pragma once

#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <cstring>
#include <deque>
#include <systemc>
#include <tlm>
#include <vector>

#include "memory/device_memory.h"
#include "transaction/gpu_extension.h"

namespace warptlm::testing {

class TestMemory {
 public:
  TestMemory(uint64_t base, uint64_t size) : base_(base), bytes_(size, 0) {}
  explicit TestMemory(DeviceMemory& memory) : device_(&memory) {}

  bool read(uint64_t address, void* dst, uint64_t n) const {
    if (device_) return device_->read(address, dst, n);
    if (!inside(address, n)) return false;
    std::memcpy(dst, bytes_.data() + (address - base_), n);
    return true;
  }
  bool write(uint64_t address, const void* src, uint64_t n) {
    if (device_) return device_->write(address, src, n);
    if (!inside(address, n)) return false;
    std::memcpy(bytes_.data() + (address - base_), src, n);
    return true;
  }

  // Performs a generic-payload access and sets its response status: TLM_ADDRESS_ERROR_RESPONSE
  // outside the memory, TLM_BURST_ERROR_RESPONSE for a streaming width below the length. Byte
  // enables mask writes (0xff enables a byte); reads return every byte.
  void execute(tlm::tlm_generic_payload& t) {
    const unsigned n = t.get_data_length();
    const unsigned sw = t.get_streaming_width();
    if (t.is_read() || t.is_write()) {
      if (sw != 0 && sw < n) return t.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
      std::vector<uint8_t> old(n);
      if (!read(t.get_address(), old.data(), n))
        return t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      if (t.is_read()) {
        std::memcpy(t.get_data_ptr(), old.data(), n);
      } else {
        const unsigned char* be = t.get_byte_enable_ptr();
        for (unsigned i = 0; i < n; ++i)
          if (!be || be[i % t.get_byte_enable_length()] == TLM_BYTE_ENABLED)
            old[i] = t.get_data_ptr()[i];
        write(t.get_address(), old.data(), n);
      }
    }
    t.set_response_status(tlm::TLM_OK_RESPONSE);
  }

  // Debug transport: the bytes moved, 0 outside the memory.
  unsigned debug(tlm::tlm_generic_payload& t) {
    const unsigned n = t.get_data_length();
    bool ok = t.is_read()    ? read(t.get_address(), t.get_data_ptr(), n)
              : t.is_write() ? write(t.get_address(), t.get_data_ptr(), n)
                             : false;
    return ok ? n : 0;
  }

 private:
  bool inside(uint64_t address, uint64_t n) const {
    return address >= base_ && address - base_ <= bytes_.size() &&
           n <= bytes_.size() - (address - base_);
  }
  DeviceMemory* device_ = nullptr;
  uint64_t base_ = 0;
  std::vector<uint8_t> bytes_;
};

// What a target saw arrive: one entry per BEGIN_REQ (or b_transport call).
struct TargetArrival {
  sc_core::sc_time time;
  tlm::tlm_command command;
  uint64_t address;
  unsigned bytes;
  bool has_gpu_extension;
  uint64_t tag;  // GpuExtension::tag, 0 without the extension
  uint32_t sm;   // GpuExtension::sm
};

inline TargetArrival arrival_of(const tlm::tlm_generic_payload& t, const sc_core::sc_time& at) {
  const GpuExtension* ext = t.get_extension<GpuExtension>();
  return {at,
          t.get_command(),
          t.get_address(),
          t.get_data_length(),
          ext != nullptr,
          ext ? ext->tag : 0,
          ext ? ext->sm : 0};
}

// How MemoryTarget answers BEGIN_REQ.
enum class TargetStyle {
  Queued,         // END_REQ (TLM_UPDATED at once, or after accept_delay), BEGIN_RESP after latency
  CompleteEarly,  // TLM_COMPLETED on the return path, delay annotated with the latency
  RespondEarly,   // TLM_UPDATED with BEGIN_RESP, delay annotated with the latency
  BlockingOnly,   // registers only b_transport; simple_target_socket adapts nb_transport to it
  // Queued, and registers only nb_transport_fw (no b_transport, no debug transport):
  // simple_target_socket turns a b_transport call into BEGIN_REQ ... END_RESP.
  NonBlockingOnly,
};

class MemoryTarget : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<MemoryTarget> socket;
  TestMemory memory;
  std::vector<TargetArrival> arrivals;
  sc_core::sc_time latency;       // BEGIN_REQ to BEGIN_RESP
  sc_core::sc_time accept_delay;  // BEGIN_REQ to END_REQ (Queued); zero: TLM_UPDATED at once

  SC_HAS_PROCESS(MemoryTarget);
  MemoryTarget(sc_core::sc_module_name name, TestMemory backing, sc_core::sc_time latency_,
               TargetStyle style = TargetStyle::Queued)
      : sc_module(name),
        socket("socket"),
        memory(std::move(backing)),
        latency(latency_),
        style_(style) {
    if (style != TargetStyle::BlockingOnly)
      socket.register_nb_transport_fw(this, &MemoryTarget::nb_transport_fw);
    if (style != TargetStyle::NonBlockingOnly) {
      socket.register_b_transport(this, &MemoryTarget::b_transport);
      socket.register_transport_dbg(this, &MemoryTarget::transport_dbg);
    }
    SC_METHOD(respond);
    sensitive << respond_event_;
    dont_initialize();
    SC_METHOD(send_end_req);
    sensitive << end_req_event_;
    dont_initialize();
  }

  unsigned protocol_errors() const { return protocol_errors_; }
  unsigned max_outstanding() const { return max_outstanding_; }  // requests held at once

 private:
  struct Pending {
    tlm::tlm_generic_payload* t;
    sc_core::sc_time ready;
  };

  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) {
    const sc_core::sc_time at = sc_core::sc_time_stamp() + delay;
    if (phase == tlm::END_RESP) {
      if (&t != resp_busy_) ++protocol_errors_;
      resp_busy_ = nullptr;
      unhold(t);
      respond_event_.notify(delay);
      return tlm::TLM_COMPLETED;
    }
    if (phase != tlm::BEGIN_REQ || req_busy_) {  // request exclusion rule broken
      ++protocol_errors_;
      return tlm::TLM_COMPLETED;
    }
    arrivals.push_back(arrival_of(t, at));
    if (style_ == TargetStyle::CompleteEarly) {
      memory.execute(t);
      delay += latency;
      return tlm::TLM_COMPLETED;
    }
    if (style_ == TargetStyle::RespondEarly && !resp_busy_) {
      memory.execute(t);
      hold(t);
      resp_busy_ = &t;  // until END_RESP
      delay += latency;
      phase = tlm::BEGIN_RESP;
      return tlm::TLM_UPDATED;
    }
    hold(t);
    queue_.push_back({&t, at + latency});
    if (queue_.size() > max_outstanding_) max_outstanding_ = static_cast<unsigned>(queue_.size());
    respond_event_.notify(delay + latency);
    if (accept_delay == sc_core::SC_ZERO_TIME) {
      phase = tlm::END_REQ;
      return tlm::TLM_UPDATED;
    }
    req_busy_ = &t;
    end_req_event_.notify(delay + accept_delay);
    return tlm::TLM_ACCEPTED;
  }

  void send_end_req() {
    tlm::tlm_generic_payload* t = req_busy_;
    req_busy_ = nullptr;
    tlm::tlm_phase phase = tlm::END_REQ;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    if (socket->nb_transport_bw(*t, phase, delay) != tlm::TLM_ACCEPTED) ++protocol_errors_;
  }

  // Sends the oldest ready response, one at a time (the response exclusion rule).
  void respond() {
    if (resp_busy_ || queue_.empty()) return;
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    if (queue_.front().ready > now) return respond_event_.notify(queue_.front().ready - now);
    tlm::tlm_generic_payload* t = queue_.front().t;
    queue_.pop_front();
    if (t == req_busy_) {  // BEGIN_RESP implies END_REQ
      req_busy_ = nullptr;
      end_req_event_.cancel();
    }
    memory.execute(*t);
    resp_busy_ = t;
    tlm::tlm_phase phase = tlm::BEGIN_RESP;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    tlm::tlm_sync_enum s = socket->nb_transport_bw(*t, phase, delay);
    if (s == tlm::TLM_COMPLETED || (s == tlm::TLM_UPDATED && phase == tlm::END_RESP)) {
      resp_busy_ = nullptr;
      unhold(*t);
      respond_event_.notify(delay);
    } else if (s != tlm::TLM_ACCEPTED) {
      ++protocol_errors_;
    }
    if (!resp_busy_ && !queue_.empty()) respond_event_.notify(sc_core::SC_ZERO_TIME);
  }

  void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    arrivals.push_back(arrival_of(t, sc_core::sc_time_stamp() + delay));
    memory.execute(t);
    delay += latency;
  }

  unsigned transport_dbg(tlm::tlm_generic_payload& t) { return memory.debug(t); }

  // A held payload stays alive until its response is done (payloads without a memory manager
  // belong to their initiator for the whole transaction anyway).
  static void hold(tlm::tlm_generic_payload& t) {
    if (t.has_mm()) t.acquire();
  }
  static void unhold(tlm::tlm_generic_payload& t) {
    if (t.has_mm()) t.release();
  }

  TargetStyle style_;
  std::deque<Pending> queue_;
  tlm::tlm_generic_payload* req_busy_ = nullptr;   // END_REQ not yet sent
  tlm::tlm_generic_payload* resp_busy_ = nullptr;  // END_RESP not yet received
  sc_core::sc_event respond_event_, end_req_event_;
  unsigned protocol_errors_ = 0;
  unsigned max_outstanding_ = 0;
};

// A foreign memory that offers only b_transport on a plain tlm_target_socket; a call to
// nb_transport_fw is an error (recorded and reported).
class BlockingMemory : public sc_core::sc_module, public tlm::tlm_fw_transport_if<> {
 public:
  tlm::tlm_target_socket<> socket;
  TestMemory memory;
  std::vector<TargetArrival> arrivals;
  sc_core::sc_time latency;
  unsigned nb_calls = 0;

  BlockingMemory(sc_core::sc_module_name name, TestMemory backing, sc_core::sc_time latency_)
      : sc_module(name), socket("socket"), memory(std::move(backing)), latency(latency_) {
    socket.bind(*this);
  }

  void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) override {
    arrivals.push_back(arrival_of(t, sc_core::sc_time_stamp() + delay));
    memory.execute(t);
    delay += latency;
  }
  unsigned transport_dbg(tlm::tlm_generic_payload& t) override { return memory.debug(t); }
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase&,
                                     sc_core::sc_time&) override {
    ++nb_calls;
    t.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    SC_REPORT_ERROR(name(), "this memory offers only b_transport");
    return tlm::TLM_COMPLETED;
  }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
};

}  // namespace warptlm::testing
