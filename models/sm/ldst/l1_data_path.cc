#include "sm/ldst/l1_data_path.h"

#include <algorithm>

#include "frontend/hex_text.h"
#include "sm/ldst/coalescer.h"

namespace warptlm {
namespace {

// Requests that bypass the MSHRs (atomics, stores, misses with every MSHR
// busy) carry their memory operation's id with this bit set; MSHR fills carry
// the line address.
constexpr uint64_t kBypassTag = uint64_t(1) << 63;
// Writes of dirty lines (write-back L1) carry this tag: no memory operation
// waits on them, their answers only count down (or fault).
constexpr uint64_t kWritebackTag = kBypassTag | uint64_t(1) << 62;

// Whether the spans [firsts[l], ends[l]) of `lanes` together cover every byte
// of [line_addr, line_addr + line). Each pass over the lanes extends the
// covered prefix; ascending addresses in lane order (the usual layout) cover
// it in one pass.
bool spans_cover_line(const uint64_t* firsts, const uint64_t* ends, LaneMask lanes,
                      uint64_t line_addr, unsigned line) {
  const uint64_t end = line_addr + line;
  uint64_t covered = line_addr;
  for (bool grew = true; grew && covered < end;) {
    grew = false;
    for (LaneMask m = lanes; m; m &= m - 1) {
      const unsigned l = static_cast<unsigned>(__builtin_ctzll(m));
      if (firsts[l] <= covered && ends[l] > covered) {
        covered = ends[l];
        grew = true;
      }
    }
  }
  return covered >= end;
}

}  // namespace

L1DataPath::L1DataPath(const L1Params& p, L1Stats& stats)
    : stats_(stats),
      warp_size_(p.warp_size),
      line_(p.line),
      latency_(p.latency),
      write_back_(p.size != 0 && p.cache_global && p.write_back),
      cache_global_(p.cache_global),
      mshrs_(p.mshrs, 8) {
  if (p.size) tags_ = std::make_unique<CacheTags>(p.size, p.assoc, p.line);
}

unsigned L1DataPath::new_op() {
  if (free_ops_.empty()) {
    ops_.emplace_back();
    free_ops_.push_back(static_cast<unsigned>(ops_.size() - 1));
    lane_firsts_.resize(ops_.size() * warp_size_);
    lane_ends_.resize(ops_.size() * warp_size_);
  }
  const unsigned id = free_ops_.back();
  free_ops_.pop_back();
  ops_[id] = MemoryOp{};
  ops_[id].used = true;
  return id;
}

void L1DataPath::release(unsigned id) {
  ops_[id].used = false;
  free_ops_.push_back(id);
}

L1DataPath::Started L1DataPath::start(const AccessSpans& spans, Access access,
                                      bool writes_registers, const Owner& owner, uint64_t ready,
                                      uint64_t now) {
  coalesce(spans.first, spans.global, warp_size_, spans.widest(spans.global), line_, lines_);
  return start_lines(lines_, spans, access, writes_registers, owner, ready, now);
}

L1DataPath::Started L1DataPath::start_lines(const std::vector<uint64_t>& lines,
                                            const AccessSpans& spans, Access access,
                                            bool writes_registers, const Owner& owner,
                                            uint64_t ready, uint64_t now) {
  ++stats_.memory_instructions;
  stats_.memory_transactions += lines.size();
  const unsigned id = new_op();
  MemoryOp& op = ops_[id];
  op.warp = owner.warp_slot;
  op.global_warp = owner.global_warp;
  op.pc = owner.pc;
  op.lanes = owner.lanes;
  op.global = spans.global;
  uint64_t* const firsts = &lane_firsts_[uint64_t(id) * warp_size_];
  uint64_t* const ends = &lane_ends_[uint64_t(id) * warp_size_];
  for (LaneMask m = spans.global; m; m &= m - 1) {
    const unsigned l = static_cast<unsigned>(__builtin_ctzll(m));
    firsts[l] = spans.first[l];
    ends[l] = spans.end[l];
  }
  op.ready = ready;
  if (owner.pieces) {
    // A formed warp: its writes go to its static warps; a fault names a thread.
    if (op_pieces_.size() < ops_.size() * warp_size_) {
      op_pieces_.resize(ops_.size() * warp_size_);
      op_threads_.resize(ops_.size() * warp_size_);
    }
    op.pieces = static_cast<unsigned>(owner.pieces->size());
    std::copy(owner.pieces->begin(), owner.pieces->end(),
              op_pieces_.begin() + uint64_t(id) * warp_size_);
    std::copy(owner.lane_thread->begin(), owner.lane_thread->end(),
              op_threads_.begin() + uint64_t(id) * warp_size_);
  }
  for (uint64_t l : lines) {
    if (access == Access::Atomic) {
      // Atomics are performed at the L2: a dirty copy goes there first.
      if (write_back_ && tags_->is_dirty(l)) write_back_line(l, owner.global_warp, owner.pc);
      if (tags_) tags_->invalidate(l);
      send(l, true, AccessKind::Atomic, id | kBypassTag, owner);
      ++op.pending;
    } else if (access == Access::Store && write_back_) {
      store_write_back(l, id, owner, now);
    } else if (access == Access::Store) {
      if (tags_ && tags_->probe(l)) tags_->access(l);  // write-through, no allocation on a miss
      send(l, true, AccessKind::Store, id | kBypassTag, owner);
      ++op.pending;
    } else if (tags_ && cache_global_ && tags_->access(l)) {
      ++stats_.hits;
      op.ready = std::max(op.ready, now + latency_);
    } else {
      ++stats_.misses;
      switch (mshrs_.add(l, id)) {
        case MshrTable::Result::NewMiss:
          send(l, false, AccessKind::Load, l, owner);
          break;
        case MshrTable::Result::Merged:
          ++stats_.mshr_merges;
          break;
        case MshrTable::Result::Full:
          send(l, false, AccessKind::Load, id | kBypassTag, owner);
          break;
      }
      ++op.pending;
    }
  }
  Started started;
  started.lines = lines.size();
  if (op.pending == 0) {
    started.ready = op.ready;
    release(id);
    return started;
  }
  op.writes_registers = writes_registers;
  started.op = id;
  return started;
}

void L1DataPath::store_write_back(uint64_t l, unsigned id, const Owner& owner, uint64_t now) {
  MemoryOp& op = ops_[id];
  if (tags_->access(l)) {  // hit: the line becomes dirty, nothing leaves the SM
    ++stats_.hits;
    tags_->mark_dirty(l);
    op.ready = std::max(op.ready, now + latency_);
    return;
  }
  ++stats_.misses;
  const uint64_t* firsts = &lane_firsts_[uint64_t(id) * warp_size_];
  const uint64_t* ends = &lane_ends_[uint64_t(id) * warp_size_];
  if (spans_cover_line(firsts, ends, op.global, l, line_)) {
    // Every byte is written: allocate dirty without reading the line.
    evict(tags_->fill(l, true), owner.global_warp, owner.pc);
    op.ready = std::max(op.ready, now + latency_);
    return;
  }
  // A partial write: fetch the line first (write-allocate, fetch-on-write),
  // dirty when it arrives. Without an MSHR the store goes to the L2 itself.
  switch (mshrs_.add(l, id)) {
    case MshrTable::Result::NewMiss:
      send(l, false, AccessKind::Load, l, owner);
      op.store = true;
      break;
    case MshrTable::Result::Merged:
      ++stats_.mshr_merges;
      op.store = true;
      break;
    case MshrTable::Result::Full:
      send(l, true, AccessKind::Store, id | kBypassTag, owner);
      break;
  }
  ++op.pending;
}

L1DataPath::Answer L1DataPath::response(uint64_t tag, bool ok, uint64_t now,
                                        std::vector<unsigned>& completed, unsigned& failed) {
  completed.clear();
  if ((tag & kWritebackTag) == kWritebackTag) {
    --writebacks_in_flight_;
    if (!ok) return Answer::WriteBackFailed;
    if (flushing_ && writebacks_in_flight_ == 0) {
      flushing_ = false;
      stats_.flush_cycles += now - flush_start_;
    }
    return Answer::WriteBack;
  }
  if (tag & kBypassTag) {
    const unsigned id = static_cast<unsigned>(tag & ~kBypassTag);
    if (!ok) {
      failed = id;
      return Answer::Failed;
    }
    if (--ops_[id].pending == 0) completed.push_back(id);
    return Answer::Operations;
  }
  mshrs_.fill(tag, waiters_);
  if (!ok) {
    failed = static_cast<unsigned>(waiters_.front());
    return Answer::Failed;
  }
  if (tags_ && cache_global_) {
    // A write-back store waiting on the line (fetch-on-write) leaves it dirty.
    bool dirty = false;
    if (write_back_)
      for (uint64_t id : waiters_) dirty = dirty || ops_[id].store;
    const MemoryOp& first = ops_[waiters_.front()];
    evict(tags_->fill(tag, dirty), first.global_warp, first.pc);
  }
  for (uint64_t id : waiters_)
    if (--ops_[id].pending == 0) completed.push_back(static_cast<unsigned>(id));
  return Answer::Operations;
}

L1DataPath::FaultSite L1DataPath::fault_site(unsigned id, uint64_t line_addr,
                                             AccessKind kind) const {
  const MemoryOp& op = ops_[id];
  const uint64_t* firsts = &lane_firsts_[uint64_t(id) * warp_size_];
  const uint64_t* ends = &lane_ends_[uint64_t(id) * warp_size_];
  // The lowest lane whose span touches the line (every line the op sent was
  // touched by one of its lanes; the lowest lane is the fallback all the same).
  const uint64_t line_end = line_addr + line_;
  FaultSite site;
  site.lane = op.global ? static_cast<unsigned>(__builtin_ctzll(op.global)) : 0;
  for (LaneMask m = op.global; m; m &= m - 1) {
    const unsigned l = static_cast<unsigned>(__builtin_ctzll(m));
    if (firsts[l] < line_end && ends[l] > line_addr) {
      site.lane = l;
      break;
    }
  }
  site.address = firsts[site.lane];
  site.size = static_cast<unsigned>(ends[site.lane] - firsts[site.lane]);
  if (op.pieces) site.thread = op_threads_[uint64_t(id) * warp_size_ + site.lane];
  site.why = "the memory system answered an error for the " + std::string(access_kind_name(kind)) +
             " of the line at " + hex_string(line_addr) + " (lane " + std::to_string(site.lane) +
             "'s address " + hex_string(site.address) + ")";
  return site;
}

bool L1DataPath::start_flush(uint64_t now) {
  if (write_back_) {
    dirty_lines_.clear();
    tags_->take_dirty(dirty_lines_);
    for (uint64_t l : dirty_lines_) write_back_line(l, 0, 0);
    stats_.flush_writebacks += dirty_lines_.size();
  }
  flushing_ = writebacks_in_flight_ > 0;
  flush_start_ = now;
  return !flushing_;
}

void L1DataPath::write_back_line(uint64_t line_addr, uint32_t warp, Pc pc) {
  outbox_.push_back(
      MemoryRequest{line_addr, line_, true, AccessKind::Writeback, kWritebackTag, warp, pc});
  ++stats_.writebacks;
  ++writebacks_in_flight_;
}

void L1DataPath::evict(const CacheTags::Victim& victim, uint32_t warp, Pc pc) {
  if (victim.valid && victim.dirty) write_back_line(victim.line_addr, warp, pc);
}

}  // namespace warptlm
