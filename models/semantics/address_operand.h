// The [address] operand of a memory instruction, decoded once per
// instruction, and the alignment checks every access makes: shared by ld/st/
// atom and the tensor-core loads and stores.
#pragma once

#include <cstdint>

#include "semantics/operands.h"

namespace warptlm::sem {

// out[lane] = (in[lane] + off) & wrap for lanes [0, ws), `in` a register's
// lanes (uint64_t or uint32_t): a plain function with a restricted output, which
// GCC's -O2 vectoriser takes (see read_lanes).
template <class T>
inline void offset_lanes(const T* in, uint64_t* __restrict out, uint64_t off, uint64_t wrap,
                         unsigned ws) {
  if (ws == 32) {
    for (unsigned lane = 0; lane < 32; ++lane) out[lane] = (uint64_t(in[lane]) + off) & wrap;
  } else {
    for (unsigned lane = 0; lane < ws; ++lane) out[lane] = (uint64_t(in[lane]) + off) & wrap;
  }
}

// The address operand of one instruction, decoded once.
class AddressOperand {
 public:
  AddressOperand(const Exec& x, const Operand& op) : x_(x) {
    if (op.kind != Operand::Kind::Address) x.unsupported("expected an [address] operand");
    offset_ = static_cast<uint64_t>(op.offset);
    if (op.has_reg) {
      const RegSlot s = x.regs.slots[op.reg];
      if (s.kind == RegKind::Pred) x.unsupported("a predicate register as an address");
      base_ = x.regs.data + s.offset;
      narrow_ = s.kind == RegKind::Narrow;
      wrap32_ = op.reg_type != Type::None && type_bits(op.reg_type) <= 32;
    } else if (op.has_symbol) {
      has_symbol_ = true;
      symbol_ = op.symbol;
    }
  }
  // The address of each lane of m in out[lane]. A variable's address is the
  // same for every lane: the environment is asked once.
  void gather(LaneMask m, uint64_t* out) const {
    if (!m) return;
    const unsigned ws = x_.warp_size();
    const uint64_t off = offset_;
    if (base_) {
      const uint64_t wrap = wrap32_ ? 0xffffffffull : ~uint64_t(0);
      if (narrow_) return gather_base(static_cast<const uint32_t*>(base_), m, off, wrap, out);
      return gather_base(static_cast<const uint64_t*>(base_), m, off, wrap, out);
    }
    const uint64_t a = has_symbol_ ? x_.env.symbol_address(symbol_) + off : off;
    each_lane(m, ws, [&](unsigned lane) { out[lane] = a; });
  }

 private:
  template <class T>
  void gather_base(const T* in, LaneMask m, uint64_t off, uint64_t wrap, uint64_t* out) const {
    const unsigned ws = x_.warp_size();
    if (m == full_mask(ws)) return offset_lanes(in, out, off, wrap, ws);
    for_lanes(m, [&](unsigned lane) { out[lane] = (uint64_t(in[lane]) + off) & wrap; });
  }

  const Exec& x_;
  const void* base_ = nullptr;  // the base register's storage
  bool narrow_ = false, wrap32_ = false, has_symbol_ = false;
  uint32_t symbol_ = 0;
  uint64_t offset_ = 0;
};

// The lanes of m below the first (lowest) one whose address is not aligned to
// `size`, that lane in *bad; m itself when every address is aligned. The lanes
// below a misaligned one access memory before it faults, as lane by lane.
inline LaneMask aligned_lanes(LaneMask m, unsigned ws, const uint64_t* addrs, unsigned size,
                              unsigned* bad) {
  if ((size & (size - 1)) == 0) {  // element size x vector length: a power of two
    // The usual answer, every lane aligned, from one OR of the addresses (a
    // counted loop over a whole warp, which vectorises).
    uint64_t any = 0;
    each_lane(m, ws, [&](unsigned lane) { any |= addrs[lane]; });
    if ((any & (size - 1)) == 0) return m;
  }
  for (LaneMask r = m; r; r &= r - 1) {
    const unsigned lane = static_cast<unsigned>(__builtin_ctzll(r));
    if (addrs[lane] % size != 0) {
      *bad = lane;
      return lanes_below(m, lane);
    }
  }
  return m;
}

// Throws MemoryFault(Misaligned) for lane `lane`'s `size`-byte access at addr
// by instruction `in` (in its state space).
[[noreturn]] void misaligned(const Instruction& in, uint64_t addr, unsigned size, unsigned lane);
[[noreturn]] inline void misaligned(const Exec& x, uint64_t addr, unsigned size, unsigned lane) {
  misaligned(x.inst, addr, size, lane);
}

// Inline, with the message built out of line: every lane of every access
// passes here.
inline void check_aligned(const Exec& x, uint64_t addr, unsigned size, unsigned lane) {
  if (addr % size != 0) misaligned(x, addr, size, lane);
}

}  // namespace warptlm::sem
