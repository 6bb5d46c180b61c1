// The scoreboard of one warp: the register writes in flight, each with the
// lanes it covers, so that splits of one warp running on disjoint lanes (the
// multi-path reconvergence schemes) do not wait on each other's writes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "semantics/semantics.h"
#include "sm/scoreboard/register_operands.h"

namespace warptlm {

class Scoreboard {
 public:
  explicit Scoreboard(unsigned registers = 0);
  // Clears; sized for a function's register count (reuses the storage).
  void reset(unsigned registers);
  // The writes of `ops` become pending for `lanes`. Throws std::invalid_argument
  // naming `lanes` when a written register already has a pending write on one
  // of them (the SM checks blocked() first, so that is a caller bug), or `ops`
  // when a register is out of range; nothing changes then.
  // Inline (once per issue with writes), as is release() (once per writeback):
  // the checks are one pass, and only a failed check looks for the error to report.
  void reserve(const RegisterOperands& ops, LaneMask lanes) {
    const size_t n = pending_.size();
    LaneMask* const pending = pending_.data();
    for (unsigned i = 0; i < ops.n_reads; ++i)
      if (ops.reads()[i] >= n) bad_reserve(ops, lanes);
    for (unsigned i = 0; i < ops.n_writes; ++i) {
      const uint32_t r = ops.writes()[i];
      if (r >= n || (pending[r] & lanes)) bad_reserve(ops, lanes);
    }
    if (lanes == 0) return;
    for (unsigned i = 0; i < ops.n_writes; ++i) {
      LaneMask& m = pending[ops.writes()[i]];
      pending_registers_ += m == 0;
      m |= lanes;
    }
  }
  // Their writeback happened: removes exactly `lanes` from each written
  // register. Throws std::invalid_argument naming `lanes` when one of them was
  // not pending, or `ops` when a written register is out of range; nothing
  // changes then.
  void release(const RegisterOperands& ops, LaneMask lanes) {
    const size_t n = pending_.size();
    LaneMask* const pending = pending_.data();
    for (unsigned i = 0; i < ops.n_writes; ++i) {
      const uint32_t r = ops.writes()[i];
      if (r >= n || (pending[r] & lanes) != lanes) bad_release(ops, lanes);
    }
    if (lanes == 0) return;
    for (unsigned i = 0; i < ops.n_writes; ++i) {
      LaneMask& m = pending[ops.writes()[i]];
      m &= ~lanes;
      pending_registers_ -= m == 0;
    }
  }
  // RAW or WAW: some read or written register has a pending write on a lane of
  // `lanes`. Throws std::invalid_argument naming `ops` for a register out of
  // range that the scan reaches (it stops at the first blocked register).
  // Inline: it runs on every issue attempt. The range check rides in the
  // same loop (a register past the end throws when the scan reaches it; one
  // before it that is blocked answers first, which is the same answer a full
  // check would precede).
  bool blocked(const RegisterOperands& ops, LaneMask lanes) const {
    const size_t n = pending_.size();
    for (unsigned i = 0; i < ops.n_reads; ++i) {
      const uint32_t r = ops.reads()[i];
      if (r >= n) out_of_range(r, n);
      if (pending_[r] & lanes) return true;
    }
    for (unsigned i = 0; i < ops.n_writes; ++i) {
      const uint32_t r = ops.writes()[i];
      if (r >= n) out_of_range(r, n);
      if (pending_[r] & lanes) return true;
    }
    return false;
  }
  // What a scoreboard without lane masks would say (any pending write to those
  // registers): the SM counts "stalls avoided by lane masks" as
  // blocked_any_lane && !blocked.
  bool blocked_any_lane(const RegisterOperands& ops) const;
  // No pending write at all (the SM drains before calls and returns).
  bool empty() const { return pending_registers_ == 0; }

  // The lanes with a pending write to `reg` (0 out of range).
  LaneMask pending(uint32_t reg) const { return reg < pending_.size() ? pending_[reg] : 0; }
  unsigned registers() const { return static_cast<unsigned>(pending_.size()); }

 private:
  [[noreturn]] static void out_of_range(uint32_t reg, size_t registers);
  // The first error of a reserve() or release() that failed its checks, in
  // the documented order (reserve: read ranges, write ranges, written lanes).
  [[noreturn]] void bad_reserve(const RegisterOperands& ops, LaneMask lanes) const;
  [[noreturn]] void bad_release(const RegisterOperands& ops, LaneMask lanes) const;

  std::vector<LaneMask> pending_;   // by register: lanes with a write in flight
  unsigned pending_registers_ = 0;  // registers with a nonzero mask
};

}  // namespace warptlm
