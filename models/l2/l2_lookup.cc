// L2Slice: the cache policy. Each request taken in is looked up once; the
// outcomes, and what memory's answers do, are listed in docs/memory-system.md.
#include <tlm>

#include "l2/l2_slice.h"
#include "transaction/sim_now.h"

namespace warptlm {
namespace {

uint64_t id_of(tlm::tlm_generic_payload& t) { return reinterpret_cast<uintptr_t>(&t); }
tlm::tlm_generic_payload* payload_of(uint64_t id) {
  return reinterpret_cast<tlm::tlm_generic_payload*>(static_cast<uintptr_t>(id));
}

}  // namespace

L2Slice::Op L2Slice::op_of(const tlm::tlm_generic_payload& t) const {
  const GpuExtension* ext = gpu_extension(t);
  if (ext && ext->kind == AccessKind::Atomic) return Op::Atomic;
  return t.get_command() == tlm::TLM_WRITE_COMMAND ? Op::Write : Op::Read;
}

void L2Slice::count(Op op) {
  switch (op) {
    case Op::Read:
      ++stats_.reads;
      break;
    case Op::Write:
      ++stats_.writes;
      break;
    case Op::Atomic:
      ++stats_.atomics;
      break;
  }
}

bool L2Slice::covers_line(const tlm::tlm_generic_payload& t) const {
  if (t.get_address() % params_.cache.line != 0 || t.get_data_length() != params_.cache.line)
    return false;
  const unsigned char* be = t.get_byte_enable_ptr();
  if (!be) return true;
  for (unsigned i = 0; i < params_.cache.line; ++i)
    if (be[i % t.get_byte_enable_length()] != TLM_BYTE_ENABLED) return false;
  return true;
}

bool L2Slice::lookup(tlm::tlm_generic_payload& t) {
  const sc_core::sc_time now = sim_now();
  const Op op = op_of(t);
  if (!tags_) {  // uncached: forward the request itself
    if (!out_room()) return false;
    count(op);
    ++stats_.passthrough;
    out_queue_.push(&t);
    return true;
  }
  const unsigned line = params_.cache.line;
  if (t.get_data_length() > line || t.get_address() % line + t.get_data_length() > line) {
    // One line per request: the coalescer above splits accesses at line boundaries.
    count(op);
    respond(t, now + latency_, tlm::TLM_BURST_ERROR_RESPONSE);
    return true;
  }
  const uint64_t la = tags_->line_address(t.get_address());
  if (write_through_ && op != Op::Read) {
    // Every write goes on to memory and is answered when memory answers it;
    // a present line stays (clean), an absent one is not allocated.
    if (!out_room()) return false;
    count(op);
    ++(tags_->access(la) ? stats_.hits : stats_.misses);
    forward(t);
    return true;
  }
  if (tags_->access(la)) {
    count(op);
    ++stats_.hits;
    if (op != Op::Read) tags_->mark_dirty(la);
    respond(t, now + latency_, tlm::TLM_OK_RESPONSE);
    return true;
  }
  if (mshrs_->has(la)) {  // a fill for this line is in flight: wait for it
    if (mshrs_->add(la, id_of(t)) == MshrTable::Result::Full) return false;
    count(op);
    ++stats_.misses;
    ++stats_.mshr_merges;
    return true;
  }
  if (op == Op::Write && covers_line(t)) {
    // The write replaces every byte: allocate without reading the old line.
    if (!out_room()) return false;  // room for the victim's writeback
    count(op);
    ++stats_.misses;
    CacheTags::Victim v = tags_->fill(la, true);
    if (v.valid && v.dirty) write_back(v.line_addr);
    respond(t, now + latency_, tlm::TLM_OK_RESPONSE);
    return true;
  }
  // Reads, atomics and partial writes need the line: fetch it.
  if (!out_room()) return false;
  if (mshrs_->add(la, id_of(t)) == MshrTable::Result::Full) return false;
  count(op);
  ++stats_.misses;
  fetch(la, t);
  return true;
}

void L2Slice::memory_response(tlm::tlm_generic_payload& t) {
  const sc_core::sc_time now = sim_now();
  wake_.notify(sc_core::SC_ZERO_TIME);  // a freed MSHR may let a stalled request in
  if (!tags_) {                         // uncached: t is the forwarded request itself
    respond(t, now, t.get_response_status());
    return;
  }
  uint32_t slot = static_cast<uint32_t>(gpu_extension(t)->tag);
  Slot s = slots_.at(slot);
  free_slots_.push_back(slot);
  switch (s.role) {
    case Role::Fill:
      fill_done(t);
      break;
    case Role::Writeback:
      if (t.is_response_error()) ++stats_.writeback_errors;
      break;
    case Role::Forward:
      respond(*s.original, now, t.get_response_status());
      break;
  }
  t.release();
}

void L2Slice::fill_done(tlm::tlm_generic_payload& t) {
  const uint64_t la = t.get_address();
  const bool ok = !t.is_response_error();
  if (ok) {
    CacheTags::Victim v = tags_->fill(la);
    if (v.valid && v.dirty) write_back(v.line_addr);
  }
  mshrs_->fill(la, waiters_);
  const sc_core::sc_time ready = sim_now() + latency_;
  for (uint64_t id : waiters_) {
    tlm::tlm_generic_payload& w = *payload_of(id);
    // Writes and atomics merged into the fill modify the line it brought.
    if (ok && op_of(w) != Op::Read) tags_->mark_dirty(la);
    respond(w, ready, ok ? tlm::TLM_OK_RESPONSE : t.get_response_status());
  }
}

}  // namespace warptlm
