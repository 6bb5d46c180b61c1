// SmCore's memory stage: the accesses of an issued instruction (shared-memory
// banks here, global accesses through the L1 data path) and the memory
// system's answers, which complete operations or report a fault.
#include <algorithm>

#include "sm/compaction_issue.h"
#include "sm/ldst/shared_banks.h"
#include "sm/sm_core.h"

namespace warptlm {

namespace {

// Instructions that make several accesses per lane (a texture fetch's
// texels, a fragment's elements, ldmatrix's rows): their global lines and
// shared words are counted access by access, not from one span per lane.
bool several_accesses_per_lane(Opcode op) {
  return op == Opcode::Tex || op == Opcode::Tld4 || op == Opcode::WmmaLoad ||
         op == Opcode::WmmaStore || op == Opcode::Ldmatrix;
}

}  // namespace

uint64_t SmCore::time_memory(WarpSlot& ws, const Path& p, const Instruction& in, uint64_t now) {
  // Per lane: the span of its global and of its shared accesses; the
  // coalescer and the bank model work on those.
  // One span per lane in each: a lane may access both spaces (cp.async
  // reads global memory and writes shared memory).
  AccessSpans spans, shared;
  uint64_t done = now;
  for (const MemoryAccess& a : ctas_[ws.cta].env->accesses) {
    if (a.space == Space::Global)
      spans.add(spans.global, a.lane, a.address, a.size);
    else if (a.space == Space::Shared)
      shared.add(shared.shared, a.lane, a.address, a.size);
    else  // local, constant and parameter accesses: an L1 (or constant cache) hit
      done = std::max(done, now + config_.memory.l1.latency);
  }
  const bool several = several_accesses_per_lane(in.op);
  if (shared.shared) {
    unsigned cycles = 0;
    if (several) {
      shared_words_.clear();
      for (const MemoryAccess& a : ctas_[ws.cta].env->accesses)
        if (a.space == Space::Shared)
          for (uint64_t w = a.address / 4; w <= (a.address + a.size - 1) / 4; ++w)
            shared_words_.push_back(w);
      cycles = shared_word_cycles(shared_words_, config_.sm.shared_banks);
    } else {
      cycles = shared_access_cycles(shared.first, shared.shared, warp_size_,
                                    shared.widest(shared.shared), config_.sm.shared_banks);
    }
    ++stats_.shared_accesses;
    stats_.shared_bank_conflicts += cycles > 1 ? cycles - 1 : 0;
    done = std::max(done, now + config_.sm.shared_latency + (cycles ? cycles - 1 : 0));
  }
  if (!spans.global) return done;

  const bool atomic = in.op == Opcode::Atom || in.op == Opcode::Red;
  const bool write =
      !atomic && (in.op == Opcode::St || in.op == Opcode::Sust || in.op == Opcode::WmmaStore);
  L1DataPath::Owner owner;
  owner.warp_slot = static_cast<unsigned>(&ws - warps_.data());
  owner.global_warp = ws.global_id;
  owner.pc = p.pc;
  owner.lanes = p.mask;
  const std::vector<WarpPiece>* pieces =
      compacting_ ? compaction_->pieces(owner.warp_slot) : nullptr;
  if (pieces) {  // a formed warp: its writes go to its static warps; a fault names a thread
    owner.pieces = pieces;
    owner.lane_thread = &compaction_->lane_threads(owner.warp_slot);
  }
  const bool writes_registers = !write && operands_->at(p.pc).n_writes > 0 && in.op != Opcode::Red;
  const L1DataPath::Access access = atomic  ? L1DataPath::Access::Atomic
                                    : write ? L1DataPath::Access::Store
                                            : L1DataPath::Access::Load;
  L1DataPath::Started started;
  if (several) {
    // The texels of a fetch or the elements of a fragment, each lane's
    // several: their global lines, in the order the instruction made the
    // accesses, through the L1 (textures: Volta's unified L1 and texture
    // cache; docs/textures.md).
    access_lines_.clear();
    const uint64_t line = config_.memory.l1.line;
    for (const MemoryAccess& a : ctas_[ws.cta].env->accesses) {
      if (a.space != Space::Global) continue;
      for (uint64_t l = a.address & ~(line - 1); l < a.address + a.size; l += line)
        if (std::find(access_lines_.begin(), access_lines_.end(), l) == access_lines_.end())
          access_lines_.push_back(l);
    }
    if (in.op == Opcode::Tex || in.op == Opcode::Tld4) {
      ++stats_.texture_instructions;
      stats_.texture_transactions += access_lines_.size();
    }
    started = l1_.start_lines(access_lines_, spans, access, writes_registers, owner, done, now);
  } else {
    started = l1_.start(spans, access, writes_registers, owner, done, now);
  }
  if (pieces && pieces->size() > 1) {
    ++stats_.compacted_memory_instructions;
    stats_.compacted_memory_transactions += started.lines;
  }
  if (started.op == L1DataPath::kNoOp) return started.ready;
  ++ws.outstanding;
  ++outstanding_ops_;
  if (!write && in.op != Opcode::CpAsync) {  // a cp.async keeps its warp running
    const unsigned s = static_cast<unsigned>(schedulers_.size());
    waits(owner.warp_slot % s, owner.warp_slot / s);
  }
  return writes_registers ? kNever : done;
}

void SmCore::complete_memory_op(unsigned id, uint64_t now) {
  const L1DataPath::MemoryOp& op = l1_.op(id);
  WarpSlot& ws = warps_[op.warp];
  --ws.outstanding;
  --outstanding_ops_;
  may_finish_ |= gates_[op.warp].done && ws.outstanding == 0 && ws.writebacks == 0;
  const uint64_t ready = l1_.completion_ready(id, now);
  if (op.writes_registers && op.pieces) {
    const WarpPiece* pieces = l1_.pieces(id);
    for (unsigned i = 0; i < op.pieces; ++i)
      writebacks_.push(Writeback{ready, pieces[i].warp, op.pc, pieces[i].lanes});
  } else if (op.writes_registers) {
    writebacks_.push(Writeback{ready, op.warp, op.pc, op.lanes});
  }
  l1_.release(id);
}

void SmCore::memory_fault(unsigned id, uint64_t line_addr, AccessKind kind) {
  const L1DataPath::MemoryOp& op = l1_.op(id);
  const WarpSlot& ws = warps_[op.warp];
  const L1DataPath::FaultSite site = l1_.fault_site(id, line_addr, kind);
  const Warp* warp = &ws.warp;
  unsigned thread_lane = site.lane;
  if (site.thread >= 0) {
    // A formed warp's SIMD lane: name the thread's own warp and lane.
    const uint32_t t = static_cast<uint32_t>(site.thread);
    warp = &warps_[ctas_[ws.cta].warp_slots[t / warp_size_]].warp;
    thread_lane = t % warp_size_;
  }
  MemoryFault mf(MemoryFault::Reason::OutOfBounds, Space::Global, site.address, site.size,
                 thread_lane, site.why);
  issuer_->fault(*warp, ctas_[ws.cta].context, op.pc, thread_lane, "memory fault: " + site.why,
                 &mf);
}

bool SmCore::response(uint64_t tag, AccessKind kind, uint64_t address, bool ok, uint64_t now) {
  unsigned failed = 0;
  switch (l1_.response(tag, ok, now, completed_, failed)) {
    case L1DataPath::Answer::WriteBack:
      return false;
    case L1DataPath::Answer::WriteBackFailed: {
      // No thread waits on a write-back: the fault names the line and the SM.
      FaultSite site;
      site.kernel = launch_->kernel->name;
      site.has_address = true;
      site.address = address;
      const std::string what = "kernel '" + site.kernel +
                               "': memory fault: the memory system answered an error for the "
                               "write-back of the L1 line at " +
                               hex_string(address) + " (SM " + std::to_string(id_) + ")";
      throw KernelFault(what, site);
    }
    case L1DataPath::Answer::Failed:
      memory_fault(failed, address, kind);
    case L1DataPath::Answer::Operations:
      break;
  }
  for (unsigned id : completed_) complete_memory_op(id, now);
  return true;
}

}  // namespace warptlm
