// L2Slice: the downstream (memory) side. The slice sends line reads (fills),
// line writes (writebacks) and, under write_through, copies of the writes it
// forwards, all as payloads from its own pool; an uncached slice forwards the
// requests it receives instead. One BEGIN_REQ is open at a time on the socket.
#include <cstring>

#include "l2/l2_slice.h"
#include "transaction/sim_now.h"

namespace warptlm {
namespace {
constexpr const char* kReportId = "warptlm/l2";
}  // namespace

PooledPayload* L2Slice::own_request(Role role, tlm::tlm_generic_payload* original) {
  PooledPayload* p = pool_.allocate();
  uint32_t slot;
  if (free_slots_.empty()) {
    slot = static_cast<uint32_t>(slots_.size());
    slots_.push_back(Slot{});
  } else {
    slot = free_slots_.back();
    free_slots_.pop_back();
  }
  slots_[slot] = Slot{role, original};
  p->gpu.tag = slot;
  return p;
}

void L2Slice::fetch(uint64_t line_addr, const tlm::tlm_generic_payload& first) {
  PooledPayload* p = own_request(Role::Fill, nullptr);
  p->set_command(tlm::TLM_READ_COMMAND);
  p->set_address(line_addr);
  p->set_data_length(params_.cache.line);
  p->set_streaming_width(params_.cache.line);
  // The fill is charged to the miss that opened it, for traces downstream.
  GpuExtension* ext = &p->gpu;
  if (const GpuExtension* from = gpu_extension(first)) {
    ext->kind = from->kind == AccessKind::Fetch ? AccessKind::Fetch : AccessKind::Load;
    ext->sm = from->sm;
    ext->warp = from->warp;
    ext->pc = from->pc;
  }
  ++stats_.fills;
  out_queue_.push(p);
}

void L2Slice::write_back(uint64_t line_addr) {
  // The data is not ours to send: the memory port refreshes every write's
  // bytes from the functional memory before it leaves the GPU.
  PooledPayload* p = own_request(Role::Writeback, nullptr);
  p->set_command(tlm::TLM_WRITE_COMMAND);
  p->set_address(line_addr);
  p->set_data_length(params_.cache.line);
  p->set_streaming_width(params_.cache.line);
  GpuExtension* ext = &p->gpu;
  ext->kind = AccessKind::Writeback;
  ext->sm = params_.index;
  ++stats_.writebacks;
  out_queue_.push(p);
}

void L2Slice::forward(tlm::tlm_generic_payload& t) {
  // A copy, so every payload the slice sends is its own; the byte enables stay
  // the original's, which lives until the forwarded write is answered.
  PooledPayload* p = own_request(Role::Forward, &t);
  p->set_command(t.get_command());
  p->set_address(t.get_address());
  p->set_data_length(t.get_data_length());
  p->set_streaming_width(t.get_data_length());
  std::memcpy(p->get_data_ptr(), t.get_data_ptr(), t.get_data_length());
  p->set_byte_enable_ptr(t.get_byte_enable_ptr());
  p->set_byte_enable_length(t.get_byte_enable_length());
  if (const GpuExtension* from = gpu_extension(t)) {
    GpuExtension* ext = &p->gpu;
    uint64_t tag = ext->tag;
    *ext = *from;
    ext->tag = tag;
  }
  ++stats_.write_throughs;
  out_queue_.push(p);
}

void L2Slice::send_requests() {
  const sc_core::sc_time now = sim_now();
  while (!out_open_ && !out_queue_.empty() && now >= out_free_at_) {
    tlm::tlm_generic_payload& p = *out_queue_.front();
    out_queue_.pop();
    wake_.notify(sc_core::SC_ZERO_TIME);  // queue room may let a stalled request in
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    switch (out->nb_transport_fw(p, phase, delay)) {
      case tlm::TLM_ACCEPTED:
        out_open_ = &p;
        break;
      case tlm::TLM_UPDATED:
        out_free_at_ = now + delay;
        if (phase == tlm::BEGIN_RESP) {  // the response on the return path: END_RESP it
          tlm::tlm_phase end = tlm::END_RESP;
          sc_core::sc_time end_delay = delay;
          out->nb_transport_fw(p, end, end_delay);
          deliver(p, delay);
        } else if (phase != tlm::END_REQ) {
          SC_REPORT_ERROR(kReportId, "BEGIN_REQ: unexpected phase returned");
        }
        break;
      case tlm::TLM_COMPLETED:
        out_free_at_ = now + delay;
        deliver(p, delay);
        break;
    }
  }
}

tlm::tlm_sync_enum L2Slice::out_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& phase,
                                   sc_core::sc_time& delay) {
  if (phase == tlm::END_REQ) {
    if (delay != sc_core::SC_ZERO_TIME)
      out_peq_.notify(t, phase, delay);
    else
      out_peq_callback(t, phase);
    return tlm::TLM_ACCEPTED;
  }
  if (phase == tlm::BEGIN_RESP) {
    if (&t == out_open_) {  // BEGIN_RESP implies END_REQ
      out_open_ = nullptr;
      out_free_at_ = sim_now() + delay;
      wake_.notify(sc_core::SC_ZERO_TIME);
    }
    deliver(t, delay);
    return tlm::TLM_COMPLETED;
  }
  SC_REPORT_ERROR(kReportId, "nb_transport_bw: unexpected phase");
  return tlm::TLM_ACCEPTED;
}

void L2Slice::deliver(tlm::tlm_generic_payload& t, const sc_core::sc_time& delay) {
  if (delay == sc_core::SC_ZERO_TIME)
    memory_response(t);
  else
    out_peq_.notify(t, tlm::BEGIN_RESP, delay);
}

void L2Slice::out_peq_callback(tlm::tlm_generic_payload& t, const tlm::tlm_phase& phase) {
  if (phase == tlm::BEGIN_RESP) {
    memory_response(t);
    return;
  }
  if (&t == out_open_) {  // END_REQ
    out_open_ = nullptr;
    wake_.notify(sc_core::SC_ZERO_TIME);
  }
}

}  // namespace warptlm
