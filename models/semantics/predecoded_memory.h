// The pre-decoded loads and stores (semantics/predecoded.h): scalar 32- and
// 64-bit ld/st whose address is a register plus an offset and whose data
// register has the access's width. They make the environment calls that
// memory_ops.cc's load() and store() make, with the same addresses, lanes and
// bytes, and fault as those do: the lanes below a misaligned one access
// memory first, and a fault from the environment leaves the lanes below the
// faulting one loaded. Internal to predecoded.cc, which is its only includer.
#pragma once

#include <cstdint>
#include <cstring>

#include "semantics/address_operand.h"
#include "semantics/predecoded_handlers.h"

namespace warptlm::predecoded {

// The lanes' addresses, as AddressOperand::gather computes them for a base
// register stored as B (p.a), the offset p.imm, and (kWrap32) 32-bit address
// arithmetic.
template <class B, bool kWrap32>
inline void addresses(const P& p, uint8_t* r, LaneMask m, unsigned ws, u64* __restrict out) {
  const B* base = lanes_of<const B>(r, p.a);
  const u64 off = p.imm;
  constexpr u64 kWrap = kWrap32 ? 0xffffffffull : ~u64(0);
  sem::each_lane(m, ws, [&](unsigned l) { out[l] = (u64(base[l]) + off) & kWrap; });
}

// The lanes of m below the first one whose address is not aligned to
// sizeof(R), that lane in *bad; m itself when all are (memory_ops.cc's
// aligned_lanes for a power-of-two size).
template <class R>
inline LaneMask aligned(LaneMask m, unsigned ws, const u64* addrs, unsigned* bad) {
  u64 any = 0;
  sem::each_lane(m, ws, [&](unsigned l) { any |= addrs[l]; });
  if ((any & (sizeof(R) - 1)) == 0) return m;
  for (LaneMask left = m; left; left &= left - 1) {
    const unsigned l = static_cast<unsigned>(__builtin_ctzll(left));
    if (addrs[l] % sizeof(R) != 0) {
      *bad = l;
      return lanes_below(m, l);
    }
  }
  return m;
}

// ld.<space>.<R's width> d, [base + offset]: R lanes in p.d.
template <class R, class B, bool kWrap32>
void load(const P& p, uint8_t* r, LaneMask m, unsigned ws, WarpEnvironment& env) {
  u64 addrs[kMaxWarpSize];
  addresses<B, kWrap32>(p, r, m, ws, addrs);
  unsigned bad = 0;
  const LaneMask ok = aligned<R>(m, ws, addrs, &bad);
  // The lanes' data goes straight into the destination register: load_lanes
  // writes only lanes of `ok`, and after a fault only those below the
  // faulting lane, which is what load() leaves in the register.
  env.load_lanes(p.space, ok, addrs, r + p.d, sizeof(R));
  if (ok != m) sem::misaligned(*p.inst, addrs[bad], sizeof(R), bad);
}

// st.<space>.<R's width> [base + offset], a: R lanes from p.b.
template <class R, class B, bool kWrap32>
void store(const P& p, uint8_t* r, LaneMask m, unsigned ws, WarpEnvironment& env) {
  u64 addrs[kMaxWarpSize];
  addresses<B, kWrap32>(p, r, m, ws, addrs);
  unsigned bad = 0;
  const LaneMask ok = aligned<R>(m, ws, addrs, &bad);
  // The source register's lanes are the data store_lanes reads.
  env.store_lanes(p.space, ok, addrs, r + p.b, sizeof(R));
  if (ok != m) sem::misaligned(*p.inst, addrs[bad], sizeof(R), bad);
}

}  // namespace warptlm::predecoded
