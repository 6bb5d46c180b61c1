// An SM's global-memory path: the L1 data cache (tags and write policy), its
// MSHRs, the memory operations in flight and the line requests they send, the
// memory system's answers, and the lane a faulting answer belongs to.
//
// The SM hands it each warp instruction's global accesses as one address span
// per lane (AccessSpans) and learns when the data is ready: at once (hits,
// stores that need no answer) or when a memory operation completes, which the
// SM reads from the ids response() lists. Everything that leaves goes through
// outbox(); every answer comes back through response(). It knows nothing of
// warps beyond the opaque owner it is given, so a test bench drives it alone
// (tests/sm_ldst).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cache/cache_tags.h"
#include "cache/mshr_table.h"
#include "compaction/warp_formation.h"
#include "frontend/ir.h"
#include "semantics/semantics.h"
#include "sm/ldst/l1_stats.h"
#include "transaction/gpu_extension.h"

namespace warptlm {

// A memory transaction the SM wants sent (line-sized or smaller).
struct MemoryRequest {
  uint64_t address = 0;
  unsigned bytes = 0;
  bool write = false;
  AccessKind kind = AccessKind::Load;
  uint64_t tag = 0;   // echoed back in response()
  uint32_t warp = 0;  // global warp id, for the extension
  Pc pc = 0;
};

// Per lane of one warp instruction: the span [first, end) of its accesses to
// global and to shared memory (a vector access is one span). Only the entries
// of lanes in `global` / `shared` are meaningful.
struct AccessSpans {
  uint64_t first[kMaxWarpSize];
  uint64_t end[kMaxWarpSize];
  LaneMask global = 0, shared = 0;

  // Adds lane `lane`'s access of `size` bytes at `address` to `set` (global or shared).
  void add(LaneMask& set, unsigned lane, uint64_t address, unsigned size) {
    const LaneMask bit = LaneMask(1) << lane;
    if (!(set & bit)) {
      first[lane] = address;
      end[lane] = address + size;
      set |= bit;
    } else {
      first[lane] = std::min(first[lane], address);
      end[lane] = std::max(end[lane], address + size);
    }
  }
  // The widest span among `lanes` (at least 1 byte).
  unsigned widest(LaneMask lanes) const {
    unsigned size = 1;
    for (LaneMask m = lanes; m; m &= m - 1) {
      const unsigned l = static_cast<unsigned>(__builtin_ctzll(m));
      size = std::max<unsigned>(size, unsigned(end[l] - first[l]));
    }
    return size;
  }
};

struct L1Params {
  uint64_t size = 32 * 1024;  // bytes; 0: no L1 (every global access goes to the L2)
  unsigned assoc = 8;
  unsigned line = 64;  // bytes, also the coalescing granule
  unsigned mshrs = 32;
  unsigned latency = 45;  // hit latency, cycles
  // Else write-through without allocation on a store miss. Applies only with
  // an L1 that caches global loads (size > 0, cache_global), as
  // l1_is_write_back() says for the distributor's kernel-end flush.
  bool write_back = false;
  bool cache_global = true;  // global loads allocate (false: they bypass the L1)
  unsigned warp_size = 32;
};

class L1DataPath {
 public:
  // std::invalid_argument naming the parameter for a geometry CacheTags or
  // MshrTable refuses.
  L1DataPath(const L1Params& params, L1Stats& stats);

  enum class Access : uint8_t { Load, Store, Atomic };  // Atomic: atom and red, done at the L2
  // Who a memory operation belongs to: opaque to the path, read back by its
  // owner through op(). A formed warp (compaction) also gives its pieces (the
  // static warps whose registers it writes) and the CTA thread of each SIMD
  // lane, so that a fault names the thread.
  struct Owner {
    unsigned warp_slot = 0;
    uint32_t global_warp = 0;
    Pc pc = 0;
    LaneMask lanes = 0;
    const std::vector<WarpPiece>* pieces = nullptr;
    const std::vector<int32_t>* lane_thread = nullptr;
  };
  struct MemoryOp {
    bool used = false;
    unsigned warp = 0;         // Owner::warp_slot
    uint32_t global_warp = 0;  // Owner::global_warp
    Pc pc = 0;
    LaneMask lanes = 0;
    unsigned pending = 0;  // transactions not yet answered
    uint64_t ready = 0;    // cycle the already-satisfied part is ready
    bool writes_registers = false;
    bool store = false;   // a write-back store: the lines it fetches are filled dirty
    LaneMask global = 0;  // lanes with global accesses
    unsigned pieces = 0;  // a formed warp's pieces (pieces())
  };
  static constexpr unsigned kNoOp = ~0u;
  struct Started {
    unsigned op = kNoOp;  // the operation waiting for answers, or kNoOp
    uint64_t ready = 0;   // kNoOp: the cycle the accesses are satisfied
    size_t lines = 0;     // transactions after coalescing
  };

  // Whether a new memory instruction must wait for an MSHR.
  bool mshrs_full() const { return mshrs_.full(); }
  // Coalesces the `spans.global` lanes' accesses into lines and starts them at
  // cycle `now`: hits are ready after the hit latency (at least `ready`),
  // misses and stores queue requests in outbox(). `writes_registers`: a load or
  // atomic whose result the owner waits for (kept in the operation).
  Started start(const AccessSpans& spans, Access access, bool writes_registers, const Owner& owner,
                uint64_t ready, uint64_t now);
  // As start(), with the line-aligned addresses the accesses touch already
  // found, in the order to send them (a texture fetch reads several texels
  // per lane, which one span per lane would overstate); `spans` still gives
  // each lane's extent, for naming the lane of a fault.
  Started start_lines(const std::vector<uint64_t>& lines, const AccessSpans& spans, Access access,
                      bool writes_registers, const Owner& owner, uint64_t ready, uint64_t now);
  const MemoryOp& op(unsigned id) const { return ops_[id]; }
  // A formed warp's pieces (op(id).pieces of them), piece.warp as given.
  const WarpPiece* pieces(unsigned id) const { return &op_pieces_[uint64_t(id) * warp_size_]; }
  // The cycle a completed operation's data is ready (answered at `now`).
  uint64_t completion_ready(unsigned id, uint64_t now) const {
    return std::max(ops_[id].ready, now + latency_);
  }
  void release(unsigned id);

  // What an answer meant.
  enum class Answer : uint8_t {
    Operations,       // `completed` lists the operations it completed (maybe none)
    WriteBack,        // the answer to an eviction or flush write: no operation waits
    WriteBackFailed,  // that write was answered with an error
    Failed,           // an operation's transaction was answered with an error: `failed`
  };
  // The memory system answered the transaction tagged `tag` at cycle `now`
  // (`ok`: without an error). `completed` (cleared first) gets the operations
  // that have all their answers, in the order they were waiting.
  Answer response(uint64_t tag, bool ok, uint64_t now, std::vector<unsigned>& completed,
                  unsigned& failed);

  // The lane an error answer for the line at `line_addr` belongs to: the
  // lowest of operation `id`'s lanes whose span touches it, its thread in the
  // CTA (a formed warp's lane; -1 otherwise), and the fault to report.
  struct FaultSite {
    unsigned lane = 0;
    int32_t thread = -1;
    uint64_t address = 0;  // the lane's first byte
    unsigned size = 0;
    std::string why;
  };
  FaultSite fault_site(unsigned id, uint64_t line_addr, AccessKind kind) const;

  // A launch ended (write-back L1): queues a write of every dirty line, which
  // stay present and become clean. True when no write-back is in flight.
  bool start_flush(uint64_t now);
  bool flushing() const { return flushing_; }
  unsigned write_backs_in_flight() const { return writebacks_in_flight_; }

  std::vector<MemoryRequest>& outbox() { return outbox_; }
  const CacheTags* tags() const { return tags_.get(); }

 private:
  unsigned new_op();
  void send(uint64_t address, bool write, AccessKind kind, uint64_t tag, const Owner& owner) {
    outbox_.push_back(MemoryRequest{address, line_, write, kind, tag, owner.global_warp, owner.pc});
  }
  // A write-back store's access to line `l` (a miss allocates).
  void store_write_back(uint64_t l, unsigned id, const Owner& owner, uint64_t now);
  // Sends a write of the dirty line at `line_addr` to the L2 (an eviction or a flush).
  void write_back_line(uint64_t line_addr, uint32_t warp, Pc pc);
  void evict(const CacheTags::Victim& victim, uint32_t warp, Pc pc);

  L1Stats& stats_;
  unsigned warp_size_;
  unsigned line_;
  unsigned latency_;
  bool write_back_;
  bool cache_global_;
  std::unique_ptr<CacheTags> tags_;  // null: no L1
  MshrTable mshrs_;
  std::vector<MemoryOp> ops_;
  std::vector<unsigned> free_ops_;
  // Per operation, warp_size_ entries each: lane l's span of its global
  // accesses, so that an error answer can name the lane it hit; a formed
  // warp's pieces and each SIMD lane's thread. They grow with ops_, never per
  // instruction.
  std::vector<uint64_t> lane_firsts_, lane_ends_;
  std::vector<WarpPiece> op_pieces_;
  std::vector<int32_t> op_threads_;
  std::vector<MemoryRequest> outbox_;  // the SM module reads its size after every tick
  unsigned writebacks_in_flight_ = 0;  // eviction and flush writes not yet answered
  bool flushing_ = false;
  uint64_t flush_start_ = 0;
  // Reused per call.
  std::vector<uint64_t> lines_;
  std::vector<uint64_t> waiters_;
  std::vector<uint64_t> dirty_lines_;
};

}  // namespace warptlm
