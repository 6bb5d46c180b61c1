// cp.async and mbarrier (docs/async-copy.md).
//
// cp.async copies when it executes: the PTX ISA only promises the data after
// cp.async.wait_group / wait_all or the mbarrier that tracks the copy, and a
// program that reads it earlier has a race whose every outcome the hardware
// may produce, this one included. So commit_group and wait_group change
// nothing here; the timing model holds a warp at wait_group until its copies
// have left the memory system.
//
// An mbarrier is 8 bytes of shared memory in this layout (the ISA leaves it
// opaque):
//   bits  0-19  arrivals still pending in the current phase
//   bits 20-39  arrivals expected per phase (init's count, less arrive_drops)
//   bit  62     set while the object is initialised (init .. inval)
//   bit  63     the current phase's parity
// arrive returns the object as it is after the arrival, with the phase bit of
// the phase it arrived in: test_wait compares that bit with the object's, and
// pending_count reads the count it holds. Lanes act in lane order, each as
// one arrival, so results are deterministic.
#include <string>

#include "semantics/address_operand.h"
#include "semantics/families.h"

namespace warptlm::sem {

namespace {

using u64 = uint64_t;

constexpr u64 kCountMask = (u64(1) << 20) - 1;
constexpr u64 kValid = u64(1) << 62;
constexpr u64 kPhase = u64(1) << 63;

u64 pending(u64 m) { return m & kCountMask; }
u64 expected(u64 m) { return (m >> 20) & kCountMask; }
u64 make(u64 phase, u64 expect, u64 pend) { return phase | kValid | (expect << 20) | pend; }

std::string where(const Exec& x, u64 addr) {
  return std::string("the mbarrier at ") + space_name(x.inst.space) + " address " +
         hex_string(addr);
}

u64 read_object(const Exec& x, unsigned lane, u64 addr, bool must_be_valid) {
  check_aligned(x, addr, 8, lane);
  u64 m = 0;
  x.env.load(x.inst.space, lane, addr, &m, 8);
  if (must_be_valid && !(m & kValid))
    throw LaneError(lane, where(x, addr) +
                              " is not initialised (mbarrier.init first; an inval'ed one needs "
                              "init again)");
  return m;
}

void write_object(const Exec& x, unsigned lane, u64 addr, u64 m) {
  x.env.store(x.inst.space, lane, addr, &m, 8);
}

// One arrival of `count` threads (and, for arrive_drop, as many fewer expected
// from the next phase on): the object after it, with `token` the arrival's
// state (the phase it arrived in).
u64 arrive_once(const Exec& x, unsigned lane, u64 addr, u64 m, u64 count, bool drop,
                bool no_complete, u64* token) {
  const u64 pend = pending(m);
  u64 expect = expected(m);
  if (count == 0 || count > pend)
    throw LaneError(lane, where(x, addr) + ": " + std::to_string(count) + " arrival(s) with only " +
                              std::to_string(pend) +
                              " pending in this phase (the PTX ISA leaves that undefined)");
  if (drop) expect -= count;
  const u64 left = pend - count;
  const u64 phase = m & kPhase;
  *token = make(phase, expect, left);
  if (left > 0) return make(phase, expect, left);
  if (no_complete)
    throw LaneError(lane, where(x, addr) +
                              ": an arrival with .noComplete completed the phase (the PTX ISA "
                              "leaves that undefined)");
  if (expect == 0)
    throw LaneError(lane,
                    where(x, addr) + ": arrive_drop left no thread expected in the next phase");
  return make(phase ^ kPhase, expect, expect);  // the phase completes; the next one starts
}

void mbarrier(const Exec& x) {
  const Instruction& in = x.inst;
  const MbarrierOp op = in.mbarrier;
  if (op == MbarrierOp::PendingCount) {
    const Dest d = x.dst(0, Type::U32);
    const Source state = x.src(1, Type::B64);
    return for_lanes(x.executed, [&](unsigned l) { d(l, pending(state(l))); });
  }
  const bool has_dst = op == MbarrierOp::Arrive || op == MbarrierOp::ArriveDrop ||
                       op == MbarrierOp::TestWait || op == MbarrierOp::TryWait;
  const size_t at = has_dst ? 1 : 0;  // the [address] operand
  const AddressOperand addr(x, x.op(at));
  LaneValues addrs;
  addr.gather(x.executed, addrs);
  switch (op) {
    case MbarrierOp::Init: {
      const Source count = x.src(1, Type::U32);
      return for_lanes(x.executed, [&](unsigned l) {
        const u64 n = count(l), a = addrs[l];
        check_aligned(x, a, 8, l);
        if (n == 0 || n > kCountMask)
          throw LaneError(l, where(x, a) + ": mbarrier.init's count " + std::to_string(n) +
                                 " is outside 1 .. 2^20-1");
        write_object(x, l, a, make(0, n, n));
      });
    }
    case MbarrierOp::Inval:
      return for_lanes(x.executed, [&](unsigned l) {
        read_object(x, l, addrs[l], true);
        write_object(x, l, addrs[l], 0);
      });
    case MbarrierOp::CpAsyncArrive:
      // The copies before it are done (they copy when they execute): without
      // .noinc the pending count goes up by one and the arrival takes it
      // back, which leaves the object as it is; with .noinc the arrival is
      // one of the expected ones.
      return for_lanes(x.executed, [&](unsigned l) {
        const u64 m = read_object(x, l, addrs[l], true);
        if (!in.no_complete) return;
        u64 token = 0;
        write_object(x, l, addrs[l], arrive_once(x, l, addrs[l], m, 1, false, false, &token));
      });
    case MbarrierOp::Arrive:
    case MbarrierOp::ArriveDrop: {
      const Dest d = x.dst(0, Type::B64);
      const Source count = x.has(2) ? x.src(2, Type::U32) : Source();
      const bool drop = op == MbarrierOp::ArriveDrop;
      return for_lanes(x.executed, [&](unsigned l) {
        const u64 m = read_object(x, l, addrs[l], true);
        u64 token = 0;
        const u64 n = x.has(2) ? count(l) : 1;
        write_object(x, l, addrs[l],
                     arrive_once(x, l, addrs[l], m, n, drop, in.no_complete, &token));
        d(l, token);
      });
    }
    case MbarrierOp::TestWait:
    case MbarrierOp::TryWait: {
      // try_wait may wait a while before it answers; answering at once is
      // one of the behaviours it allows, and the caller's loop retries.
      const Dest d = x.dst(0, Type::Pred);
      const Source b = x.src(2, in.parity ? Type::B32 : Type::B64);
      return for_lanes(x.executed, [&](unsigned l) {
        const u64 m = read_object(x, l, addrs[l], true);
        const u64 now = (m & kPhase) ? 1 : 0;
        const u64 asked = in.parity ? (b(l) & 1) : ((b(l) & kPhase) ? 1 : 0);
        d(l, now != asked ? 1 : 0);  // that phase has completed
      });
    }
    default:
      x.unsupported("not an mbarrier operation");
  }
}

// cp.async [dst], [src], cp-size {, src-size | ignore-src}: src-size bytes
// from global memory (all cp-size without one, none when ignore-src is
// true), the rest of the cp-size bytes zeros. Both addresses are aligned to
// cp-size.
void cp_async(const Exec& x) {
  const AddressOperand dst(x, x.op(0)), src(x, x.op(1));
  const unsigned size = static_cast<unsigned>(x.op(2).imm);
  if (size != 4 && size != 8 && size != 16) x.unsupported("cp.async copies 4, 8 or 16 bytes");
  const bool has_src_size = x.has(3);
  const bool ignore_src =
      has_src_size && x.op(3).kind == Operand::Kind::Reg && x.op(3).reg_type == Type::Pred;
  const Source extra = has_src_size ? x.src(3, ignore_src ? Type::Pred : Type::U32) : Source();
  LaneValues to, from;
  dst.gather(x.executed, to);
  src.gather(x.executed, from);
  for_lanes(x.executed, [&](unsigned l) {
    check_aligned(x, to[l], size, l);
    check_aligned(x, from[l], size, l);
    unsigned n = size;
    if (has_src_size) n = ignore_src ? (extra(l) ? 0 : size) : static_cast<unsigned>(extra(l));
    if (n > size)
      throw LaneError(l, "cp.async: the source size " + std::to_string(n) +
                             " exceeds the copy size " + std::to_string(size));
    uint8_t buf[16] = {};
    if (n) x.env.load(Space::Global, l, from[l], buf, n);
    x.env.store(Space::Shared, l, to[l], buf, size);
  });
}

}  // namespace

void exec_async(const Exec& x) {
  switch (x.inst.op) {
    case Opcode::CpAsync:
      return cp_async(x);
    case Opcode::CpAsyncCommit:
    case Opcode::CpAsyncWait:
      return;  // the copies are already done (file comment)
    case Opcode::Mbarrier:
      return mbarrier(x);
    default:
      x.unsupported("not an asynchronous-copy opcode");
  }
}

}  // namespace warptlm::sem
