// The pre-decoded loads and stores (semantics/predecoded.h): scalar 32- and
// 64-bit ld/st whose address is a register plus an offset and whose data
// register has the access's width. They make the environment calls that
// memory_ops.cc's load() and store() make, with the same addresses, lanes and
// bytes, and fault as those do: the lanes below a misaligned one access
// memory first, and a fault from the environment leaves the lanes below the
// faulting one loaded. Internal to predecoded.cc, which is its only includer.
#pragma once

#include <cstdint>

#include "semantics/address_operand.h"
#include "semantics/predecoded_handlers.h"

namespace warptlm::predecoded {

// The lanes' addresses, as AddressOperand::gather computes them, for an
// [address] of a base register stored as B (p.a) plus the offset p.imm, with
// (kWrap32) 32-bit address arithmetic.
template <class B, bool kWrap32>
struct RegisterAddress {
  static void lanes(const P& p, uint8_t* r, LaneMask m, unsigned ws, WarpEnvironment&,
                    u64* __restrict out) {
    const B* base = lanes_of<const B>(r, p.a);
    const u64 off = p.imm;
    constexpr u64 kWrap = kWrap32 ? 0xffffffffull : ~u64(0);
    sem::each_lane(m, ws, [&](unsigned l) { out[l] = (u64(base[l]) + off) & kWrap; });
  }
};
// ... and for [variable + offset] (p.var, p.imm): one address for every lane,
// the environment asked once, and only when a lane executes.
struct VariableAddress {
  static void lanes(const P& p, uint8_t*, LaneMask m, unsigned ws, WarpEnvironment& env,
                    u64* __restrict out) {
    if (!m) return;
    const u64 a = env.symbol_address(p.var) + p.imm;
    sem::each_lane(m, ws, [&](unsigned l) { out[l] = a; });
  }
};

// ld.<space>.<R's width> d, [address]: R lanes in p.d.
template <class R, class Address>
void load(const P& p, uint8_t* r, LaneMask m, unsigned ws, WarpEnvironment& env) {
  u64 addrs[kMaxWarpSize];
  Address::lanes(p, r, m, ws, env, addrs);
  unsigned bad = 0;
  const LaneMask ok = sem::aligned_lanes(m, ws, addrs, sizeof(R), &bad);
  // The lanes' data goes straight into the destination register: load_lanes
  // writes only lanes of `ok`, and after a fault only those below the
  // faulting lane, which is what load() leaves in the register.
  env.load_lanes(p.space, ok, addrs, r + p.d, sizeof(R));
  if (ok != m) sem::misaligned(*p.inst, addrs[bad], sizeof(R), bad);
}

// st.<space>.<R's width> [address], a: R lanes from p.b.
template <class R, class Address>
void store(const P& p, uint8_t* r, LaneMask m, unsigned ws, WarpEnvironment& env) {
  u64 addrs[kMaxWarpSize];
  Address::lanes(p, r, m, ws, env, addrs);
  unsigned bad = 0;
  const LaneMask ok = sem::aligned_lanes(m, ws, addrs, sizeof(R), &bad);
  // The source register's lanes are the data store_lanes reads.
  env.store_lanes(p.space, ok, addrs, r + p.b, sizeof(R));
  if (ok != m) sem::misaligned(*p.inst, addrs[bad], sizeof(R), bad);
}

}  // namespace warptlm::predecoded
