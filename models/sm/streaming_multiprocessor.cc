#include "sm/streaming_multiprocessor.h"

#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "exec/functional_executor.h"
#include "sm/sm_core.h"
#include "transaction/payload_pool.h"
#include "transaction/sim_now.h"

namespace warptlm {

// The SystemC side of an SM: SmCore::tick at cycle boundaries, run by the
// GPU's SmClock at the cycle the last tick named (or at the edge after
// a memory response arrived), or by the SM's own process when a dispatched CTA
// wakes it; and the AT initiator that sends the core's memory requests one
// BEGIN_REQ at a time (the base protocol's request exclusion rule) and keeps
// the responses until the next tick.
struct StreamingMultiprocessor::Impl {
  Impl(StreamingMultiprocessor& sm, const PlatformConfig& config)
      : sm(sm), config(config), core(sm.id(), config), pool(config.memory.l1.line) {
    period = sc_core::sc_time(1000.0 / config.sm.clock_mhz, sc_core::SC_NS);
    h.ticks = period.value();
    if (h.ticks == 0)
      throw std::invalid_argument("sm.clock_mhz: " + std::to_string(config.sm.clock_mhz) +
                                  " MHz gives a clock period below the SystemC time resolution");
  }
  // Integer arithmetic on the kernel's time resolution units: exact, and
  // cheaper than sc_time's double conversions on this every-cycle path.
  uint64_t cycle_now() const {
    // Round up: an event between edges is seen at the next edge.
    return (sim_now_value() + h.ticks - 1) / h.ticks;
  }
  // The serial part's reading of a finished cycle, from the SM's own state.
  void hand_over_finished() {
    h.finished = true;
    h.send = core.outbox().size() > sent && !request_open;
    h.retired = !result.retired.empty();
    h.arrivals = applied < arrivals.size();
    h.next = result.next;
    h.issued = core.take_private_issued();
    h.launch_count = core.launch_count();
  }

  // A memory response waiting for the first tick after its arrival.
  struct Arrival {
    uint64_t at;  // arrival time, time resolution units
    uint64_t tag;
    uint64_t address;
    AccessKind kind;
    bool ok;
  };

  // What step_private() leaves for step_serial(): nothing, a tick request
  // at `cycle`, the rest of cycle `cycle`, or the fault in `error`. On a host
  // cache line of its own, with the clock's constants: for a cycle the
  // private part finished, the serial part reads this line and nothing else
  // of an SM that another host thread may just have ticked (docs/parallel-sms.md).
  enum class Then : uint8_t { Nothing, Request, Tick, Fault };
  struct alignas(64) Handoff {
    Then then = Then::Nothing;
    bool finished = false;  // Tick: the core's cycle is complete (else finish_tick())
    bool send = false;      // finished: requests wait in the outbox, none is open
    bool retired = false;   // finished: CTAs retired (result.retired)
    bool arrivals = false;  // finished: responses wait for a later edge
    unsigned clock_index = 0;
    uint64_t cycle = 0;
    uint64_t next = kNever;  // finished: the cycle the core asks for
    uint64_t issued = 0;     // finished: instructions to add to *launch_count
    uint64_t* launch_count = nullptr;
    // The clock's constants (set at elaboration).
    uint64_t ticks = 1;  // period in time resolution units
    SmClock* clock = nullptr;
  } h;

  // What every step() reads, first and together (the SmCore members it
  // reads lead that object too): between two ticks of one SM the other SMs'
  // ticks evict its lines, so each line is a host cache miss.
  uint64_t last_tick = kNever;  // cycle of the last tick
  bool faulted = false;
  bool request_open = false;      // a BEGIN_REQ awaits its END_REQ
  size_t sent = 0;                // requests of core.outbox() already sent
  size_t applied = 0;             // arrivals[0, applied) are applied
  std::vector<Arrival> arrivals;  // in arrival order; reused, so warm ticks allocate nothing
  uint32_t epoch = 0;             // resets so far: requests carry it, stale answers are dropped
  std::exception_ptr error;
  SmCore::TickResult result;
  StreamingMultiprocessor& sm;
  const PlatformConfig& config;
  SmCore core;
  // The statistics of the cores before the last reset.
  SmStats earlier_stats;
  RunStats earlier_run;
  TraceSink* trace = nullptr;
  PayloadPool pool;
  sc_core::sc_time period;
  sc_core::sc_event wake;
  sc_core::sc_event send_next;
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

void StreamingMultiprocessor::set_trace(TraceSink* trace) {
  impl_->trace = trace;
  impl_->core.set_trace(trace);
}

SmStats StreamingMultiprocessor::stats() const {
  SmStats s = impl_->earlier_stats;
  s.add(impl_->core.stats());
  return s;
}

RunStats StreamingMultiprocessor::run_stats() const {
  RunStats r = impl_->earlier_run;
  r.add(impl_->core.run_stats());
  return r;
}

void StreamingMultiprocessor::reset() {
  Impl& m = *impl_;
  m.earlier_stats.add(m.core.stats());
  m.earlier_run.add(m.core.run_stats());
  // A fresh core is the reset state by construction; its constructor already
  // succeeded once with this configuration.
  m.core.~SmCore();
  new (&m.core) SmCore(id_, m.config);
  m.core.set_trace(m.trace);
  ++m.epoch;
  m.faulted = false;
  m.sent = 0;  // the old outbox went with the old core
  m.arrivals.clear();
  m.applied = 0;
  m.result.retired.clear();
  m.h.then = Impl::Then::Nothing;
  m.error = nullptr;
  // request_open stays: a request still awaiting END_REQ gets it.
}
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

void StreamingMultiprocessor::use_clock(SmClock& clock) {
  impl_->h.clock = &clock;
  impl_->h.clock_index = clock.add(*this);
}

void StreamingMultiprocessor::run() {
  Impl& m = *impl_;
  if (m.h.clock) m.h.clock->cancel(m.h.clock_index);  // this wake replaces a timed one
  step();
}

// Inline, as the clock's request(): every tick asks for the next one.
inline void StreamingMultiprocessor::request_tick(uint64_t cycle) {
  Impl& m = *impl_;
  const uint64_t at = cycle * m.h.ticks;
  if (m.h.clock) {
    m.h.clock->request(m.h.clock_index, at);
    return;
  }
  const uint64_t t = sim_now_value();
  m.wake.notify(at > t ? sc_core::sc_time::from_value(at - t) : sc_core::SC_ZERO_TIME);
}

void StreamingMultiprocessor::apply_arrivals(uint64_t before) {
  Impl& m = *impl_;
  while (m.applied < m.arrivals.size() && m.arrivals[m.applied].at < before) {
    const Impl::Arrival& a = m.arrivals[m.applied++];
    // The cycle it arrived in: the data's latency counts from there.
    m.core.response(a.tag, a.kind, a.address, a.ok, (a.at + m.h.ticks - 1) / m.h.ticks);
  }
  if (m.applied == m.arrivals.size()) {
    m.arrivals.clear();
    m.applied = 0;
  }
}

void StreamingMultiprocessor::step() {
  step_private(sim_now_value(), false);
  step_serial();
}

void StreamingMultiprocessor::step_private(uint64_t t, bool parallel) {
  Impl& m = *impl_;
  Impl::Handoff& h = m.h;
  h.then = Impl::Then::Nothing;
  if (m.faulted) return;
  // The edge after the last tick is the usual time: no 64-bit division then.
  const uint64_t now = m.last_tick != kNever && t == (m.last_tick + 1) * h.ticks
                           ? m.last_tick + 1
                           : (t + h.ticks - 1) / h.ticks;
  h.then = Impl::Then::Request;
  if (now * h.ticks > t) {  // woken between edges: tick at the next one
    h.cycle = now;
    return;
  }
  if (m.last_tick != kNever && now <= m.last_tick) {  // this cycle already ran
    h.cycle = m.last_tick + 1;
    return;
  }
  try {
    // Responses that arrived before this edge; those arriving at it wait for the next.
    if (m.applied < m.arrivals.size()) apply_arrivals(t);
    m.last_tick = now;
    h.then = Impl::Then::Tick;
    h.cycle = now;
    if (parallel)
      m.core.tick_private(now, m.result);
    else
      m.core.tick(now, m.result);
  } catch (...) {
    // A KernelFault is reported in order by step_serial(); anything else is rethrown there.
    h.then = Impl::Then::Fault;
    m.error = std::current_exception();
    return;
  }
  h.finished = m.core.cycle_finished();
  if (h.finished) m.hand_over_finished();
}

void StreamingMultiprocessor::step_serial() {
  Impl& m = *impl_;
  Impl::Handoff& h = m.h;
  if (h.then == Impl::Then::Nothing) return;
  if (h.then == Impl::Then::Request) {
    request_tick(h.cycle);
    return;
  }
  if (h.then == Impl::Then::Fault || !h.finished) {
    try {
      if (h.then == Impl::Then::Fault) {
        m.core.abandon_tick();
        std::rethrow_exception(std::exchange(m.error, nullptr));
      }
      m.core.finish_tick(h.cycle, m.result);
    } catch (const KernelFault& f) {
      m.faulted = true;
      report->kernel_fault(id_, f);
      return;
    }
    m.hand_over_finished();
  }
  if (h.issued) *h.launch_count += h.issued;
  if (h.send) m.send_next.notify(sc_core::SC_ZERO_TIME);
  if (h.retired)
    for (uint64_t linear : m.result.retired) report->cta_retired(id_, linear);
  if (h.next != kNever) request_tick(h.next);
  if (h.arrivals) request_tick(h.cycle + 1);
}

void StreamingMultiprocessor::send() {
  Impl& m = *impl_;
  auto& outbox = m.core.outbox();
  while (!m.request_open && m.sent < outbox.size()) {
    const MemoryRequest& r = outbox[m.sent++];
    PooledPayload* gp = m.pool.allocate();
    gp->set_command(r.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    gp->set_address(r.address);
    gp->set_data_length(r.bytes);
    gp->set_streaming_width(r.bytes);
    GpuExtension* ext = &gp->gpu;
    ext->kind = r.kind;
    ext->sm = id_;
    ext->warp = r.warp;
    ext->pc = r.pc;
    ext->tag = r.tag;
    ext->epoch = m.epoch;
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
  const GpuExtension* ext = gpu_extension(gp);     // our own payload: no lookup
  if (m.faulted || ext->epoch != m.epoch) return;  // frozen, or sent before a reset
  if (ext->kind != AccessKind::Writeback) {
    // Kept for the first tick strictly after now: whether a response arriving
    // at an edge is seen by that edge's tick must not depend on which same-time
    // process ran first.
    const uint64_t t = sim_now_value();
    m.arrivals.push_back(
        Impl::Arrival{t, ext->tag, gp.get_address(), ext->kind, gp.is_response_ok()});
    request_tick(t / m.h.ticks + 1);
    return;
  }
  // An L1 write-back's answer changes nothing an instruction waits on (the
  // core may hold no CTA at all): applied at once, without a tick.
  const bool was_flushing = m.core.flushing();
  try {
    m.core.response(ext->tag, ext->kind, gp.get_address(), gp.is_response_ok(), m.cycle_now());
  } catch (const KernelFault& f) {
    m.faulted = true;
    report->kernel_fault(id_, f);
    return;
  }
  if (was_flushing && !m.core.flushing()) report->l1_flushed(id_);
}

}  // namespace warptlm
