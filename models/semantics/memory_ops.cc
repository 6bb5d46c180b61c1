// Memory: ld st atom red.
//
// Address = base register | variable address (env.symbol_address) | absolute,
// plus the offset; a 32-bit base register gives 32-bit address arithmetic.
// Every access must be aligned to its full size (element size x vector
// length) or a MemoryFault(Misaligned) is thrown. The environment is called
// once per lane, in increasing lane order, with the instruction's state space
// (Generic is resolved by the environment). Atomics are performed lane by
// lane in that order, so the old values returned are deterministic. Memory is
// little endian.
#include <cstring>
#include <sstream>

#include "semantics/families.h"
#include "semantics/float_util.h"

namespace warptlm::sem {

namespace {

using u64 = uint64_t;

// The address operand of one instruction, decoded once.
class AddressOperand {
 public:
  AddressOperand(const Exec& x, const Operand& op) : x_(x) {
    if (op.kind != Operand::Kind::Address) x.unsupported("expected an [address] operand");
    offset_ = static_cast<u64>(op.offset);
    if (op.has_reg) {
      base_ = x.regs.lanes(op.reg);
      wrap32_ = op.reg_type != Type::None && type_bits(op.reg_type) <= 32;
    } else if (op.has_symbol) {
      has_symbol_ = true;
      symbol_ = op.symbol;
    }
  }
  u64 operator()(unsigned lane) const {
    if (base_) {
      const u64 a = base_[lane] + offset_;
      return wrap32_ ? zext(a, 32) : a;
    }
    if (has_symbol_) return x_.env.symbol_address(symbol_, lane) + offset_;
    return offset_;
  }

 private:
  const Exec& x_;
  const u64* base_ = nullptr;
  bool wrap32_ = false, has_symbol_ = false;
  uint32_t symbol_ = 0;
  u64 offset_ = 0;
};

[[noreturn]] void misaligned(const Exec& x, u64 addr, unsigned size, unsigned lane) {
  std::ostringstream s;
  s << "misaligned " << size << "-byte " << space_name(x.inst.space) << " access at 0x" << std::hex
    << addr << std::dec << " by lane " << lane << " in '" << x.inst.text << "'";
  throw MemoryFault(MemoryFault::Reason::Misaligned, x.inst.space, addr, size, lane, s.str());
}

// Inline, with the message built out of line: every lane of every access
// passes here.
inline void check_aligned(const Exec& x, u64 addr, unsigned size, unsigned lane) {
  if (addr % size != 0) misaligned(x, addr, size, lane);
}

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
  uint8_t buf[kMaxVec * 8];
  for_lanes(x.executed, [&](unsigned lane) {
    const u64 a = addr(lane);
    check_aligned(x, a, size, lane);
    x.env.load(x.inst.space, lane, a, buf, size);
    for (unsigned i = 0; i < n; ++i) dests[i](lane, ext(read_le(buf + i * es, es)));
  });
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
  uint8_t buf[kMaxVec * 8];
  for_lanes(x.executed, [&](unsigned lane) {
    const u64 a = addr(lane);
    check_aligned(x, a, size, lane);
    for (unsigned i = 0; i < n; ++i) {
      if (!sunk[i]) write_le(buf + i * es, srcs[i](lane), es);
    }
    if (!any_sink) return x.env.store(x.inst.space, lane, a, buf, size);
    for (unsigned i = 0; i < n; ++i) {  // `_` elements leave memory alone
      if (!sunk[i]) x.env.store(x.inst.space, lane, a + i * es, buf + i * es, es);
    }
  });
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
      ok = (n == 32 || n == 64) && t != Type::B32 && t != Type::B64;
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
  uint8_t buf[8];
  for_lanes(x.executed, [&](unsigned lane) {
    const u64 a = addr(lane);
    check_aligned(x, a, size, lane);
    x.env.load(x.inst.space, lane, a, buf, size);
    const u64 old = extend(read_le(buf, size), t);
    const u64 cv = op == AtomOp::Cas ? c(lane) : 0;
    write_le(buf, atomic_update(op, t, ftz, old, b(lane), cv), size);
    x.env.store(x.inst.space, lane, a, buf, size);
    d(lane, old);
  });
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
