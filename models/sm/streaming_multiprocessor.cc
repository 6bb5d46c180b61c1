#include "sm/streaming_multiprocessor.h"

#include <stdexcept>
#include <string>

#include "exec/functional_executor.h"
#include "sm/sm_core.h"
#include "transaction/payload_pool.h"

namespace warptlm {

// The SystemC side of an SM: one SC_METHOD that runs SmCore::tick at cycle
// boundaries and sleeps until the cycle it names, or until a dispatched CTA or
// a memory response wakes it; and the AT initiator that sends the core's
// memory requests one BEGIN_REQ at a time (the base protocol's request
// exclusion rule) and hands responses back.
struct StreamingMultiprocessor::Impl {
  Impl(StreamingMultiprocessor& sm, const PlatformConfig& config)
      : sm(sm), core(sm.id(), config), pool(config.memory.l1.line) {
    period = sc_core::sc_time(1000.0 / config.sm.clock_mhz, sc_core::SC_NS);
    ticks = period.value();
    if (ticks == 0)
      throw std::invalid_argument("sm.clock_mhz: " + std::to_string(config.sm.clock_mhz) +
                                  " MHz gives a clock period below the SystemC time resolution");
  }
  // Integer arithmetic on the kernel's time resolution units: exact, and
  // cheaper than sc_time's double conversions on this every-cycle path.
  uint64_t cycle_now() const {
    // Round up: an event between edges is seen at the next edge.
    return (sc_core::sc_time_stamp().value() + ticks - 1) / ticks;
  }

  StreamingMultiprocessor& sm;
  SmCore core;
  PayloadPool pool;
  sc_core::sc_time period;
  uint64_t ticks = 1;  // period in time resolution units
  sc_core::sc_event wake;
  sc_core::sc_event send_next;
  uint64_t last_tick = kNever;  // cycle of the last tick
  bool faulted = false;
  bool request_open = false;  // a BEGIN_REQ awaits its END_REQ
  size_t sent = 0;            // requests of core.outbox() already sent
  SmCore::TickResult result;
};

StreamingMultiprocessor::StreamingMultiprocessor(sc_core::sc_module_name name, unsigned id,
                                                 const PlatformConfig& config)
    : sc_module(name), dispatch("dispatch"), memory("memory"), report("report"), id_(id) {
  impl_ = std::make_unique<Impl>(*this, config);
  dispatch.register_b_transport(this, &StreamingMultiprocessor::dispatch_cta);
  memory.register_nb_transport_bw(this, &StreamingMultiprocessor::memory_bw);
  SC_METHOD(run);
  sensitive << impl_->wake;
  dont_initialize();
  SC_METHOD(send);
  sensitive << impl_->send_next;
  dont_initialize();
}

StreamingMultiprocessor::~StreamingMultiprocessor() = default;

void StreamingMultiprocessor::set_trace(TraceSink* trace) { impl_->core.set_trace(trace); }
const SmStats& StreamingMultiprocessor::stats() const { return impl_->core.stats(); }
const RunStats& StreamingMultiprocessor::run_stats() const { return impl_->core.run_stats(); }
bool StreamingMultiprocessor::idle() const { return impl_->core.idle(); }
uint64_t StreamingMultiprocessor::stalls_avoided_by_lane_masks() const {
  return impl_->core.stalls_avoided_by_lane_masks();
}

void StreamingMultiprocessor::dispatch_cta(tlm::tlm_generic_payload& gp, sc_core::sc_time&) {
  CtaDispatch* d = gp.get_extension<CtaDispatch>();
  if (!d || !d->launch) {
    gp.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  Impl& m = *impl_;
  if (m.faulted) {
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  if (d->flush_l1) {  // the launch's end: write back the dirty L1 lines
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    if (m.core.start_l1_flush(m.cycle_now())) {
      report->l1_flushed(id_);
    } else if (!m.request_open) {
      m.send_next.notify(sc_core::SC_ZERO_TIME);
    }
    return;
  }
  m.core.start_cta(*d->launch, d->ctaid, d->linear, m.cycle_now());
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  m.wake.notify(sc_core::SC_ZERO_TIME);
}

void StreamingMultiprocessor::run() {
  Impl& m = *impl_;
  if (m.faulted) return;
  const uint64_t t = sc_core::sc_time_stamp().value();
  const uint64_t now = (t + m.ticks - 1) / m.ticks;
  if (now * m.ticks > t) {  // woken between edges: tick at the next one
    next_trigger(sc_core::sc_time::from_value(now * m.ticks - t));
    return;
  }
  if (m.last_tick != kNever && now <= m.last_tick) {  // this cycle already ran
    next_trigger(sc_core::sc_time::from_value((m.last_tick + 1) * m.ticks - t));
    return;
  }
  m.last_tick = now;
  try {
    m.core.tick(now, m.result);
  } catch (const KernelFault& f) {
    m.faulted = true;
    report->kernel_fault(id_, f);
    return;
  }
  if (m.core.outbox().size() > m.sent && !m.request_open) m.send_next.notify(sc_core::SC_ZERO_TIME);
  for (uint64_t linear : m.result.retired) report->cta_retired(id_, linear);
  if (m.result.next != kNever)
    next_trigger(sc_core::sc_time::from_value((m.result.next - now) * m.ticks), m.wake);
  else
    next_trigger(m.wake);
}

void StreamingMultiprocessor::send() {
  Impl& m = *impl_;
  auto& outbox = m.core.outbox();
  while (!m.request_open && m.sent < outbox.size()) {
    const MemoryRequest& r = outbox[m.sent++];
    tlm::tlm_generic_payload* gp = m.pool.allocate();
    gp->set_command(r.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    gp->set_address(r.address);
    gp->set_data_length(r.bytes);
    gp->set_streaming_width(r.bytes);
    GpuExtension* ext = gp->get_extension<GpuExtension>();
    ext->kind = r.kind;
    ext->sm = id_;
    ext->warp = r.warp;
    ext->pc = r.pc;
    ext->tag = r.tag;
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    m.request_open = true;
    tlm::tlm_sync_enum s = memory->nb_transport_fw(*gp, phase, delay);
    if (s == tlm::TLM_UPDATED) {
      if (phase == tlm::END_REQ) {
        m.request_open = false;
      } else if (phase == tlm::BEGIN_RESP) {
        m.request_open = false;
        finish(*gp);
        phase = tlm::END_RESP;
        sc_core::sc_time d = sc_core::SC_ZERO_TIME;
        memory->nb_transport_fw(*gp, phase, d);
        gp->release();
      }
    } else if (s == tlm::TLM_COMPLETED) {
      m.request_open = false;
      finish(*gp);
      gp->release();
    }
  }
  if (m.sent == outbox.size() && !m.request_open) {
    outbox.clear();
    m.sent = 0;
  }
}

tlm::tlm_sync_enum StreamingMultiprocessor::memory_bw(tlm::tlm_generic_payload& gp,
                                                      tlm::tlm_phase& phase, sc_core::sc_time&) {
  Impl& m = *impl_;
  if (phase == tlm::END_REQ) {
    m.request_open = false;
    m.send_next.notify(sc_core::SC_ZERO_TIME);
    return tlm::TLM_ACCEPTED;
  }
  if (phase == tlm::BEGIN_RESP) {
    if (m.request_open && m.sent > 0) {
      // BEGIN_RESP implies END_REQ of an open request (base protocol).
      m.request_open = false;
      m.send_next.notify(sc_core::SC_ZERO_TIME);
    }
    finish(gp);
    gp.release();
    phase = tlm::END_RESP;
    return tlm::TLM_COMPLETED;
  }
  return tlm::TLM_ACCEPTED;
}

void StreamingMultiprocessor::finish(tlm::tlm_generic_payload& gp) {
  Impl& m = *impl_;
  if (m.faulted) return;
  const GpuExtension* ext = gp.get_extension<GpuExtension>();
  const bool was_flushing = m.core.flushing();
  bool tick = true;
  try {
    tick =
        m.core.response(ext->tag, ext->kind, gp.get_address(), gp.is_response_ok(), m.cycle_now());
  } catch (const KernelFault& f) {
    m.faulted = true;
    report->kernel_fault(id_, f);
    return;
  }
  if (was_flushing && !m.core.flushing()) report->l1_flushed(id_);
  // An L1 write-back's answer changes nothing an instruction waits on: the
  // core sleeps on (it may hold no CTA at all).
  if (tick) m.wake.notify(sc_core::SC_ZERO_TIME);
}

}  // namespace warptlm
