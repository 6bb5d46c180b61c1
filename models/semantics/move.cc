// mov: register/immediate/special/address moves and vector pack/unpack.
#include "semantics/families.h"

namespace warptlm::sem {

namespace {

constexpr size_t kMaxElems = 8;  // mov.b64 {8 x b8} at most

// Element width of a pack/unpack of `count` elements into type t.
unsigned element_bits(const Exec& x, Type t, size_t count) {
  const unsigned total = type_bits(t);
  if (count < 2 || count > kMaxElems || total % count != 0)
    x.unsupported("bad vector size for pack/unpack");
  const unsigned bits = total / static_cast<unsigned>(count);
  if (bits_type(bits) == Type::None) x.unsupported("bad element width for pack/unpack");
  return bits;
}

// mov.b64 {lo, hi}, d: element 0 takes the least significant bits.
void unpack(const Exec& x, Type t) {
  const auto& elems = x.op(0).elems;
  const unsigned bits = element_bits(x, t, elems.size());
  const Type et = bits_type(bits);
  Dest dests[kMaxElems];
  const size_t n = elems.size();
  for (size_t i = 0; i < n; ++i) dests[i] = Dest(x, elems[i], et);
  const Source a = x.src(1, t);
  for_lanes(x.executed, [&](unsigned lane) {
    const uint64_t v = a(lane);
    for (size_t i = 0; i < n; ++i) dests[i](lane, v >> (bits * i));
  });
}

// mov.b64 d, {lo, hi}.
void pack(const Exec& x, Type t) {
  const auto& elems = x.op(1).elems;
  const unsigned bits = element_bits(x, t, elems.size());
  const Type et = bits_type(bits);
  Source srcs[kMaxElems];
  const size_t n = elems.size();
  for (size_t i = 0; i < n; ++i) srcs[i] = Source(x, elems[i], et);
  const Dest d = x.dst(0, t);
  for_lanes(x.executed, [&](unsigned lane) {
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) v |= zext(srcs[i](lane), bits) << (bits * i);
    d(lane, extend(v, t));
  });
}

}  // namespace

void exec_move(const Exec& x) {
  const Type t = x.inst.type;
  if (t == Type::None) x.unsupported("mov needs a type");
  if (x.op(0).kind == Operand::Kind::Vector) return unpack(x, t);
  if (x.op(1).kind == Operand::Kind::Vector) return pack(x, t);
  const Dest d = x.dst(0, t);
  const Source a = x.src(1, t);
  LaneValues av;
  a.gather(x.executed, x.warp_size(), av);
  d.scatter(x.executed, x.warp_size(), av);
}

}  // namespace warptlm::sem
