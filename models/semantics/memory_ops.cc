// Memory: ld st atom red.
//
// Address = base register | variable address (env.symbol_address) | absolute,
// plus the offset; a 32-bit base register gives 32-bit address arithmetic.
// Every access must be aligned to its full size (element size x vector
// length) or a MemoryFault(Misaligned) is thrown. ld and st make one
// environment call for the warp (load_lanes/store_lanes: lanes in increasing
// order), with the instruction's state space (Generic is resolved by the
// environment); the faults are those of an access per lane in that order: a
// misaligned lane faults after the lanes below it have accessed memory, and
// only if none of them faulted. Atomics are performed lane by lane in that
// order (one update_lanes call), so the old values returned are deterministic. Memory is little
// endian.
#include <cstring>
#include <sstream>
#include <type_traits>

#include "semantics/address_operand.h"
#include "semantics/families.h"
#include "semantics/float16.h"
#include "semantics/float_util.h"

namespace warptlm::sem {

namespace {

using u64 = uint64_t;

// The element sizes as constants: on a little-endian host each is one load.
template <unsigned kSize>
u64 read_le_n(const uint8_t* p) {
  u64 v = 0;
  if constexpr (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) {
    std::memcpy(&v, p, kSize);
  } else {
    for (unsigned i = 0; i < kSize; ++i) v |= u64(p[i]) << (8 * i);
  }
  return v;
}
inline u64 read_le(const uint8_t* p, unsigned size) {
  switch (size) {
    case 1:
      return p[0];
    case 2:
      return read_le_n<2>(p);
    case 4:
      return read_le_n<4>(p);
    default:
      return read_le_n<8>(p);  // element_size() allows 1, 2, 4, 8
  }
}
template <unsigned kSize>
void write_le_n(uint8_t* p, u64 v) {
  if constexpr (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) {
    std::memcpy(p, &v, kSize);
  } else {
    for (unsigned i = 0; i < kSize; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
  }
}
inline void write_le(uint8_t* p, u64 v, unsigned size) {
  switch (size) {
    case 1:
      p[0] = static_cast<uint8_t>(v);
      return;
    case 2:
      return write_le_n<2>(p, v);
    case 4:
      return write_le_n<4>(p, v);
    default:
      return write_le_n<8>(p, v);  // element_size() allows 1, 2, 4, 8
  }
}

// A warp's data is lane l's `stride` bytes at l * stride (see load_lanes).
// Reading element values out of it: v[lane] = e(the kEs-byte element at
// p + lane * kEs) for a whole warp of scalar accesses, a loop GCC vectorises.
template <unsigned kEs>
void unpack_dense(const uint8_t* p, Extender e, u64* __restrict v, unsigned ws) {
  if (ws == 32) {
    for (unsigned lane = 0; lane < 32; ++lane) v[lane] = e(read_le_n<kEs>(p + lane * kEs));
  } else {
    for (unsigned lane = 0; lane < ws; ++lane) v[lane] = e(read_le_n<kEs>(p + lane * kEs));
  }
}
// The same for an element size known at run time.
void unpack_dense(const uint8_t* p, unsigned es, Extender e, u64* v, unsigned ws) {
  switch (es) {
    case 1:
      return unpack_dense<1>(p, e, v, ws);
    case 2:
      return unpack_dense<2>(p, e, v, ws);
    case 4:
      return unpack_dense<4>(p, e, v, ws);
    default:
      return unpack_dense<8>(p, e, v, ws);
  }
}
// The other way: the kEs-byte element at p + lane * kEs = v[lane].
template <unsigned kEs>
void pack_dense(const u64* v, uint8_t* __restrict p, unsigned ws) {
  if (ws == 32) {
    for (unsigned lane = 0; lane < 32; ++lane) write_le_n<kEs>(p + lane * kEs, v[lane]);
  } else {
    for (unsigned lane = 0; lane < ws; ++lane) write_le_n<kEs>(p + lane * kEs, v[lane]);
  }
}
void pack(LaneMask m, unsigned ws, const u64* v, uint8_t* p, unsigned stride, unsigned es) {
  if (stride == es && m == full_mask(ws)) {
    switch (es) {
      case 1:
        return pack_dense<1>(v, p, ws);
      case 2:
        return pack_dense<2>(v, p, ws);
      case 4:
        return pack_dense<4>(v, p, ws);
      default:
        return pack_dense<8>(v, p, ws);
    }
  }
  for_lanes(m, [&](unsigned lane) { write_le(p + lane * stride, v[lane], es); });
}

unsigned element_size(const Exec& x, Type t) {
  const unsigned bits = type_bits(t);
  if (t == Type::Pred || bits < 8) x.unsupported("needs a sized, non-predicate type");
  return bits / 8;
}

// The registers of a ld destination / st source: one, or a vector of .vec
// elements (at most 4). Returns the element count; no heap allocation.
constexpr unsigned kMaxVec = 4;
unsigned elements(const Exec& x, const Operand& op, const Operand* out[kMaxVec]) {
  const unsigned vec = x.inst.vec;
  if (op.kind != Operand::Kind::Vector) {
    if (vec != 1) x.unsupported(".v2/.v4 needs a {vector} operand");
    out[0] = &op;
    return 1;
  }
  if (op.elems.size() != vec || vec > kMaxVec)
    x.unsupported("vector size does not match .v" + std::to_string(vec));
  for (unsigned i = 0; i < vec; ++i) out[i] = &op.elems[i];
  return vec;
}

// The data of a warp's accesses, lane l's `size` bytes at l * size.
using LaneBytes = uint8_t[kMaxWarpSize * kMaxVec * 8];

void load(const Exec& x) {
  const Type t = x.inst.type;
  const unsigned es = element_size(x, t);
  const Operand* regs[kMaxVec];
  const unsigned n = elements(x, x.op(0), regs);
  Dest dests[kMaxVec];
  for (unsigned i = 0; i < n; ++i) dests[i] = Dest(x, *regs[i], t);
  const AddressOperand addr(x, x.op(1));
  const unsigned size = es * n;
  const Extender ext(type_bits(t), is_signed(t));  // extend(v, t), decoded once
  LaneValues addrs;
  addr.gather(x.executed, addrs);
  unsigned bad = 0;
  const LaneMask ok = aligned_lanes(x.executed, x.warp_size(), addrs, size, &bad);
  LaneBytes buf;
  // Registers are written after the accesses (a lane's address is read
  // before its destination is written either way).
  auto write_back = [&](LaneMask lanes) {
    const unsigned ws = x.warp_size();
    for (unsigned i = 0; i < n; ++i) {
      const uint8_t* p = buf + i * es;
      if (size == es && lanes == full_mask(ws)) {  // a whole warp's scalars: vector loops
        LaneValues v;
        unpack_dense(p, es, ext, v, ws);
        dests[i].scatter(lanes, ws, v);
      } else {
        const Dest& d = dests[i];
        for_lanes(lanes, [&](unsigned lane) { d(lane, ext(read_le(p + lane * size, es))); });
      }
    }
  };
  try {
    x.env.load_lanes(x.inst.space, ok, addrs, buf, size);
  } catch (const MemoryFault& f) {
    write_back(lanes_below(ok, f.lane));  // as lane by lane: the lanes before it loaded
    throw;
  }
  write_back(ok);
  if (ok != x.executed) misaligned(x, addrs[bad], size, bad);
}

void store(const Exec& x) {
  const Type t = x.inst.type;
  const unsigned es = element_size(x, t);
  const Operand* vals[kMaxVec];
  const unsigned n = elements(x, x.op(1), vals);
  Source srcs[kMaxVec];
  bool sunk[kMaxVec] = {};
  bool any_sink = false;
  for (unsigned i = 0; i < n; ++i) {
    sunk[i] = vals[i]->kind == Operand::Kind::Sink;
    any_sink |= sunk[i];
    if (!sunk[i]) srcs[i] = Source(x, *vals[i], t);
  }
  const AddressOperand addr(x, x.op(0));
  const unsigned size = es * n;
  LaneValues addrs;
  addr.gather(x.executed, addrs);
  if (any_sink) {
    // `_` elements leave memory alone: each stored element is its own access.
    uint8_t buf[kMaxVec * 8];
    for_lanes(x.executed, [&](unsigned lane) {
      const u64 a = addrs[lane];
      check_aligned(x, a, size, lane);
      for (unsigned i = 0; i < n; ++i) {
        if (sunk[i]) continue;
        write_le(buf + i * es, srcs[i](lane), es);
        x.env.store(x.inst.space, lane, a + i * es, buf + i * es, es);
      }
    });
    return;
  }
  unsigned bad = 0;
  const LaneMask ok = aligned_lanes(x.executed, x.warp_size(), addrs, size, &bad);
  LaneBytes buf;
  LaneValues v;
  for (unsigned i = 0; i < n; ++i) {
    srcs[i].gather(ok, x.warp_size(), v);
    pack(ok, x.warp_size(), v, buf + i * es, size, es);
  }
  x.env.store_lanes(x.inst.space, ok, addrs, buf, size);
  if (ok != x.executed) misaligned(x, addrs[bad], size, bad);
}

// The new memory value of an atomic operation (b, c in the value convention).
u64 atomic_update(AtomOp op, Type t, bool ftz, u64 old, u64 b, u64 c) {
  const unsigned n = type_bits(t);
  switch (op) {
    case AtomOp::Add:
      if (t == Type::F32) {
        const float fa = from_bits<float>(old), fb = from_bits<float>(b);
        return finish(ftz ? flush(fa) + flush(fb) : fa + fb, ftz, false);
      }
      if (t == Type::F64)
        return finish(from_bits<double>(old) + from_bits<double>(b), false, false);
      if (is_half(t)) {  // .noftz: each element rounded to nearest, subnormals kept
        const HalfFormat f = half_format(t);
        u64 r = 0;
        for (unsigned e = 0; e < n / 16; ++e) {
          const double s = half_to_double(f, uint16_t(old >> (16 * e))) +
                           half_to_double(f, uint16_t(b >> (16 * e)));
          r |= u64(half_from_double(f, s, Rounding::Rn)) << (16 * e);
        }
        return r;
      }
      return old + b;
    case AtomOp::Min:
    case AtomOp::Max: {
      const bool lt = is_signed(t) ? int64_t(old) < int64_t(b) : old < b;
      return (lt == (op == AtomOp::Min)) ? old : b;
    }
    case AtomOp::Inc:
      return old >= b ? 0 : old + 1;
    case AtomOp::Dec:
      return (old == 0 || old > b) ? b : old - 1;
    case AtomOp::And:
      return old & b;
    case AtomOp::Or:
      return old | b;
    case AtomOp::Xor:
      return old ^ b;
    case AtomOp::Exch:
      return b;
    case AtomOp::Cas:
      return zext(old, n) == zext(b, n) ? c : old;
    case AtomOp::None:
      break;
  }
  return old;
}

void check_atomic(const Exec& x, AtomOp op, Type t) {
  const unsigned n = type_bits(t);
  const bool fl = is_float(t);
  bool ok = false;
  switch (op) {
    case AtomOp::Add:
      ok = ((n == 32 || n == 64) && t != Type::B32 && t != Type::B64) || is_half(t);
      break;
    case AtomOp::Min:
    case AtomOp::Max:
      ok = !fl && !is_bits(t) && (n == 32 || n == 64);
      break;
    case AtomOp::Inc:
    case AtomOp::Dec:
      ok = t == Type::U32;
      break;
    case AtomOp::And:
    case AtomOp::Or:
    case AtomOp::Xor:
      ok = !fl && (n == 32 || n == 64);
      break;
    case AtomOp::Exch:
      ok = n == 32 || n == 64;
      break;
    case AtomOp::Cas:
      ok = n == 16 || n == 32 || n == 64;
      break;
    case AtomOp::None:
      break;
  }
  if (!ok) x.unsupported("atomic operation not defined for this type");
  if (x.inst.op == Opcode::Red && (op == AtomOp::Exch || op == AtomOp::Cas))
    x.unsupported("red has no exch/cas");
}

// What each lane of an atomic computes (update_lanes' callback). The
// operand arrays are filled for the lanes that do their atomic, and only
// those are read, so they are left uninitialised (three of them: 1.5 KB
// to zero for every atomic instruction).
struct AtomicLanes {
  AtomicLanes(AtomOp o, Type ty, bool f, unsigned s)
      : op(o), t(ty), ftz(f), size(s), ext(type_bits(ty), is_signed(ty)) {}
  AtomOp op;
  Type t;
  bool ftz;
  unsigned size;
  Extender ext;    // extend(v, t), for atomic_update()
  LaneValues b;    // the operands, read for the warp before the accesses
  LaneValues c;    // cas's new value
  LaneValues old;  // each lane's old value, for its destination

  // Any operation and type, through atomic_update().
  static void update(void* ctx, unsigned lane, uint8_t* bytes) {
    AtomicLanes& a = *static_cast<AtomicLanes*>(ctx);
    const u64 old = a.ext(read_le(bytes, a.size));
    const u64 c = a.op == AtomOp::Cas ? a.c[lane] : 0;
    write_le(bytes, atomic_update(a.op, a.t, a.ftz, old, a.b[lane], c), a.size);
    a.old[lane] = old;
  }
  // The integer operations on 32- and 64-bit elements, decoded once per
  // instruction: what atomic_update() gives for them, on the element's bits.
  template <class U, AtomOp kOp, bool kSigned>
  static void update_int(void* ctx, unsigned lane, uint8_t* bytes) {
    AtomicLanes& a = *static_cast<AtomicLanes*>(ctx);
    using S = std::make_signed_t<U>;
    const U old = static_cast<U>(read_le_n<sizeof(U)>(bytes));
    const U b = static_cast<U>(a.b[lane]);
    U v = old;
    switch (kOp) {
      case AtomOp::Add:
        v = U(old + b);
        break;
      case AtomOp::Min:
      case AtomOp::Max: {
        const bool lt = kSigned ? S(old) < S(b) : old < b;
        v = lt == (kOp == AtomOp::Min) ? old : b;
        break;
      }
      case AtomOp::Inc:
        v = old >= b ? U(0) : U(old + 1);
        break;
      case AtomOp::Dec:
        v = old == 0 || old > b ? b : U(old - 1);
        break;
      case AtomOp::And:
        v = old & b;
        break;
      case AtomOp::Or:
        v = old | b;
        break;
      case AtomOp::Xor:
        v = old ^ b;
        break;
      case AtomOp::Exch:
        v = b;
        break;
      default:  // Cas
        v = old == b ? static_cast<U>(a.c[lane]) : old;
        break;
    }
    write_le_n<sizeof(U)>(bytes, v);
    a.old[lane] = old;
  }
  template <class U, bool kSigned>
  static WarpEnvironment::LaneUpdate int_callback(AtomOp op) {
    switch (op) {
      case AtomOp::Add:
        return update_int<U, AtomOp::Add, kSigned>;
      case AtomOp::Min:
        return update_int<U, AtomOp::Min, kSigned>;
      case AtomOp::Max:
        return update_int<U, AtomOp::Max, kSigned>;
      case AtomOp::Inc:
        return update_int<U, AtomOp::Inc, kSigned>;
      case AtomOp::Dec:
        return update_int<U, AtomOp::Dec, kSigned>;
      case AtomOp::And:
        return update_int<U, AtomOp::And, kSigned>;
      case AtomOp::Or:
        return update_int<U, AtomOp::Or, kSigned>;
      case AtomOp::Xor:
        return update_int<U, AtomOp::Xor, kSigned>;
      case AtomOp::Exch:
        return update_int<U, AtomOp::Exch, kSigned>;
      case AtomOp::Cas:
        return update_int<U, AtomOp::Cas, kSigned>;
      default:
        return update;
    }
  }
  // The callback for this instruction's operation and type.
  WarpEnvironment::LaneUpdate callback() const {
    const unsigned n = type_bits(t);
    if (is_float(t) || is_half(t) || (n != 32 && n != 64)) return update;
    const bool s = is_signed(t);
    if (n == 32) return s ? int_callback<uint32_t, true>(op) : int_callback<uint32_t, false>(op);
    return s ? int_callback<u64, true>(op) : int_callback<u64, false>(op);
  }
};

void atomic(const Exec& x) {
  const bool red = x.inst.op == Opcode::Red;
  const Type t = x.inst.type;
  const AtomOp op = x.inst.atom;
  check_atomic(x, op, t);
  if (x.inst.vec != 1) x.unsupported("vector atomics");
  const unsigned size = element_size(x, t);
  const size_t first = red ? 0 : 1;  // atom: d, [a], b[, c]; red: [a], b
  const Dest d = red ? Dest() : x.dst(0, t);
  const AddressOperand addr(x, x.op(first));
  const Source b = x.src(first + 1, t);
  const Source c = op == AtomOp::Cas ? x.src(first + 2, t) : Source();
  // PTX: atom.add.f32 flushes subnormals on global memory, not on shared.
  const bool ftz = t == Type::F32 && x.inst.space == Space::Global;
  LaneValues addrs;
  addr.gather(x.executed, addrs);
  unsigned bad = 0;
  // A misaligned lane faults after the lanes below it have done their atomics.
  const LaneMask ok = aligned_lanes(x.executed, x.warp_size(), addrs, size, &bad);
  AtomicLanes lanes(op, t, ftz, size);
  b.gather(ok, x.warp_size(), lanes.b);
  if (op == AtomOp::Cas) c.gather(ok, x.warp_size(), lanes.c);
  // A lane's destination is written once its store is done.
  // (Dest extends each old value from t's width itself.)
  auto write_back = [&](LaneMask m) { d.scatter(m, x.warp_size(), lanes.old); };
  try {
    x.env.update_lanes(x.inst.space, ok, addrs, size, lanes.callback(), &lanes);
  } catch (const MemoryFault& f) {
    write_back(lanes_below(ok, f.lane));
    throw;
  }
  write_back(ok);
  if (ok != x.executed) misaligned(x, addrs[bad], size, bad);
}

}  // namespace

void exec_memory(const Exec& x) {
  switch (x.inst.op) {
    case Opcode::Ld:
      return load(x);
    case Opcode::St:
      return store(x);
    case Opcode::Atom:
    case Opcode::Red:
      return atomic(x);
    default:
      x.unsupported("not a memory opcode");
  }
}

}  // namespace warptlm::sem
