#include "frontend/taint_frame.h"

#include <algorithm>

namespace warptlm {
namespace {

using Fact = AddressFact;

bool plain(const Fact& f) {
  return f.kind == Fact::Const || f.kind == Fact::Other || f.kind == Fact::Foreign;
}

Fact join(const Fact& a, const Fact& b) {
  if (a.kind == Fact::Bottom) return b;
  if (b.kind == Fact::Bottom || a == b) return a;
  if (plain(a) && plain(b)) {
    if (a.kind == Fact::Foreign || b.kind == Fact::Foreign) return {Fact::Foreign, 0};
    return {Fact::Other, 0};  // different constants, or a constant and Other
  }
  if (a.in_frame() && b.in_frame()) {
    bool same_base = a.value == b.value && a.kind != Fact::FrameAny && b.kind != Fact::FrameAny;
    return same_base ? Fact{Fact::FrameObj, a.value} : Fact{Fact::FrameAny, 0};
  }
  return {Fact::Top, 0};
}

// A frame offset, computed in unsigned arithmetic (it may wrap): exact
// within kMaxFrameBytes either way, beyond that an unknown frame address.
Fact frame_offset(uint64_t offset) {
  const int64_t v = static_cast<int64_t>(offset);
  if (v < -kMaxFrameBytes || v > kMaxFrameBytes) return {Fact::FrameAny, 0};
  return {Fact::Frame, v};
}

// a + b (or a - b, or a | b on an aligned base): keeps frame offsets and
// constants exact, as `%SP + 8` needs; a frame address plus a run-time
// index stays in the object it started in.
Fact arith(const Fact& a, const Fact& b, Opcode op) {
  if (a.kind == Fact::Bottom || b.kind == Fact::Bottom) return {};
  const bool sub = op == Opcode::Sub;
  auto combine = [&](int64_t x, int64_t y) {
    uint64_t ux = uint64_t(x), uy = uint64_t(y);
    return static_cast<int64_t>(op == Opcode::Or ? (ux | uy) : sub ? ux - uy : ux + uy);
  };
  if (a.kind == Fact::Const && b.kind == Fact::Const)
    return {Fact::Const, combine(a.value, b.value)};
  // Commutative cases: put the frame (or .param) address first.
  const Fact& x = (!sub && !a.may_be_frame() && b.may_be_frame()) ? b : a;
  const Fact& y = &x == &a ? b : a;
  if (x.kind == Fact::Frame && y.kind == Fact::Const) {
    // `or` only adds when the bits do not overlap (an aligned base).
    if (op != Opcode::Or || (x.value & y.value) == 0)
      return frame_offset(static_cast<uint64_t>(combine(x.value, y.value)));
    return {Fact::FrameObj, x.value};
  }
  const bool index = y.kind == Fact::Const || y.kind == Fact::Other;
  if ((x.kind == Fact::Frame || x.kind == Fact::FrameObj) && index)
    return {Fact::FrameObj, x.value};
  if (x.kind == Fact::FrameAny && index) return x;
  if (x.kind == Fact::Param && y.kind == Fact::Const) return x;
  if (a.may_be_frame() || b.may_be_frame()) return {Fact::Top, 0};
  if (a.kind == Fact::Foreign || b.kind == Fact::Foreign) return {Fact::Foreign, 0};
  return {Fact::Other, 0};
}

Fact symbol_fact(const Module& m, uint32_t sym, int64_t offset) {
  const Symbol& s = m.symbols.at(sym);
  if (s.space == Space::Local) return frame_offset(s.offset + static_cast<uint64_t>(offset));
  if (s.space == Space::Param) return {Fact::Param, sym};
  return {Fact::Other, 0};
}

// A stored value or vector: Top if an operand may be a frame address, Foreign
// if one may point into another frame, else Other.
Fact combine(const Module& m, const FrameFacts& ff, const std::vector<Operand>& ops, size_t first) {
  Fact out{Fact::Other, 0};
  for (size_t i = first; i < ops.size(); ++i) {
    Fact f = operand_fact(m, ff, ops[i]);
    if (f.may_be_frame()) return {Fact::Top, 0};
    if (f.kind == Fact::Foreign) out = f;
  }
  return out;
}

// Any other computation (mul, xor, float ops...): Top if an operand may be
// a frame address; a foreign pointer does not survive it.
Fact compute(const Module& m, const FrameFacts& ff, const std::vector<Operand>& ops, size_t first) {
  Fact f = combine(m, ff, ops, first);
  return f.kind == Fact::Top ? f : Fact{Fact::Other, 0};
}

// Only an integer of the address size can carry a pointer from memory.
bool pointer_sized(const Module& m, const Instruction& in) {
  return !is_float(in.type) && in.vec == 1 && type_bits(in.type) == m.address_size;
}

bool exact_slot(const Fact& a, unsigned bytes) {
  return a.kind == Fact::Frame && a.value >= 0 && a.value + bytes <= kMaxFrameBytes;
}

bool is_memory_op(const Instruction& in) {
  return in.op == Opcode::Ld || in.op == Opcode::St || in.op == Opcode::Atom ||
         in.op == Opcode::Red;
}

// The address operand of a memory instruction.
const Operand& address_of(const Instruction& in) {
  return in.ops.at(in.op == Opcode::Ld || in.op == Opcode::Atom ? 1 : 0);
}

class FactBuilder {
 public:
  explicit FactBuilder(const Module& m) : m_(m) {
    out_.functions.resize(m.functions.size());
    for (uint32_t f = 0; f < m.functions.size(); ++f)
      out_.functions[f].regs.assign(m.functions[f].regs.size(), Fact{});
  }

  ModuleFrameFacts run() {
    // Every fact only rises in a finite lattice, so this terminates.
    for (bool changed = true; changed;) {
      changed = false;
      for (uint32_t f = 0; f < m_.functions.size(); ++f) changed |= visit_function(f);
    }
    for (uint32_t f = 0; f < m_.functions.size(); ++f) collect_bases(f);
    return std::move(out_);
  }

 private:
  bool visit_function(uint32_t f) {
    const Function& fn = m_.functions[f];
    bool changed = false;
    for (Pc pc = fn.begin; pc < fn.end; pc += kInstrBytes) {
      const Instruction& in = m_.at(pc);
      FrameFacts& ff = out_.functions[f];
      if (in.op == Opcode::St || in.op == Opcode::Red)
        changed |= store(f, in, combine(m_, ff, in.ops, 1));
      else if (in.op == Opcode::Atom)
        changed |= store(f, in, combine(m_, ff, in.ops, 2));
      const size_t nd = destination_count(in);
      if (nd == 0) continue;
      Fact v = value_fact(f, in);
      for (size_t i = 0; i < nd; ++i) changed |= set(ff, in.ops[i], v);
    }
    return changed;
  }

  // A load from memory outside the own frame.
  Fact memory_fact(const Instruction& in) const {
    bool foreign = out_.global_escape && pointer_sized(m_, in);
    return {foreign ? Fact::Foreign : Fact::Other, 0};
  }

  // What a load may return, as an address.
  Fact load_fact(uint32_t f, const Instruction& in) const {
    const FrameFacts& ff = out_.functions[f];
    const Fact a = operand_fact(m_, ff, in.ops.at(1));
    const unsigned bytes = access_bytes(in);
    switch (in.space) {
      case Space::Const:
        return {Fact::Other, 0};
      case Space::Param: {
        // Kernel parameters hold no frame address; a .func's formals and
        // call results may hold its callers' / callees' ones.
        const Function& fn = m_.functions[f];
        bool kernel_param = fn.is_entry && a.kind == Fact::Param &&
                            std::count(fn.params.begin(), fn.params.end(), a.value) > 0;
        bool foreign = !kernel_param && pointer_sized(m_, in);
        return {foreign ? Fact::Foreign : Fact::Other, 0};
      }
      case Space::Local:
      case Space::Generic: {
        if (!a.may_be_frame()) return memory_fact(in);
        Fact v = join({Fact::Other, 0}, ff.smashed);
        if (exact_slot(a, bytes)) {
          for (int64_t b = a.value; b < a.value + bytes && size_t(b) < ff.slots.size(); ++b)
            v = join(v, ff.slots[b]);
          return v;
        }
        for (const Fact& s : ff.slots) v = join(v, s);  // somewhere in the own frame
        return a.in_frame() ? v : join(v, memory_fact(in));
      }
      default:
        return memory_fact(in);
    }
  }

  // The fact of the value an instruction writes to its destination(s).
  Fact value_fact(uint32_t f, const Instruction& in) const {
    const FrameFacts& ff = out_.functions[f];
    auto src = [&](size_t i) {
      return i < in.ops.size() ? operand_fact(m_, ff, in.ops[i]) : Fact{};
    };
    switch (in.op) {
      case Opcode::Mov:
      case Opcode::Cvta:
      case Opcode::Cvt:
        // An unpacking mov spreads the pieces of its source: not an exact address.
        return in.ops[0].kind == Operand::Kind::Vector ? join({Fact::Other, 0}, src(1)) : src(1);
      case Opcode::Add:
      case Opcode::Sub:
      case Opcode::Or:
        // Carry arithmetic (d, CF, a, b, CF) is a piece of a wider number,
        // never an exact address.
        if (in.carry_in || in.carry_out) return compute(m_, ff, in.ops, destination_count(in));
        if (is_float(in.type)) return compute(m_, ff, in.ops, 1);
        return arith(src(1), src(2), in.op);
      case Opcode::Ld:
        return load_fact(f, in);
      case Opcode::Atom:
        return memory_fact(in);
      default:
        return compute(m_, ff, in.ops, destination_count(in));
    }
  }

  // Records what storing a value with fact `v` does.
  bool store(uint32_t f, const Instruction& in, const Fact& v) {
    if (v.kind == Fact::Bottom) return false;
    FrameFacts& ff = out_.functions[f];
    const Fact a = operand_fact(m_, ff, address_of(in));
    const unsigned bytes = access_bytes(in);
    const bool local = in.space == Space::Local || in.space == Space::Generic;
    bool changed = false;
    auto raise = [&](Fact& dst) {
      Fact j = join(dst, v);
      changed |= !(j == dst);
      dst = j;
    };
    auto flag = [&](bool& dst) {
      changed |= !dst;
      dst = true;
    };
    if (local && exact_slot(a, bytes)) {
      if (ff.slots.size() < size_t(a.value + bytes)) ff.slots.resize(a.value + bytes);
      for (int64_t b = a.value; b < a.value + bytes; ++b) raise(ff.slots[b]);
      return changed;
    }
    if (local && a.may_be_frame()) raise(ff.smashed);
    if (local && a.in_frame()) return changed;
    // A frame address leaving the frame: passed to a callee, or stored away.
    if (v.may_be_frame()) flag(ff.escaped);
    if (in.space != Space::Param && (v.may_be_frame() || v.kind == Fact::Foreign))
      flag(out_.global_escape);
    return changed;
  }

  bool set(FrameFacts& ff, const Operand& dst, const Fact& v) {
    bool changed = false;
    if (dst.kind == Operand::Kind::Reg) {
      Fact& cur = ff.regs.at(dst.reg);
      Fact j = join(cur, v);
      changed = !(j == cur);
      cur = j;
    } else if (dst.kind == Operand::Kind::Vector) {
      for (const Operand& e : dst.elems) changed |= set(ff, e, join({Fact::Other, 0}, v));
    }
    return changed;
  }

  // Object bases: every exactly accessed offset and every indexed base.
  void collect_bases(uint32_t f) {
    const Function& fn = m_.functions[f];
    FrameFacts& ff = out_.functions[f];
    ff.frame_bytes = static_cast<int64_t>(fn.local_size);
    for (Pc pc = fn.begin; pc < fn.end; pc += kInstrBytes) {
      const Instruction& in = m_.at(pc);
      if (!is_memory_op(in) || in.ops.size() < 2) continue;
      if (in.space != Space::Local && in.space != Space::Generic) continue;
      Fact a = operand_fact(m_, ff, address_of(in));
      if (a.kind != Fact::Frame && a.kind != Fact::FrameObj) continue;
      ff.bases.push_back(a.value);
      ff.frame_bytes = std::max<int64_t>(ff.frame_bytes, a.value + access_bytes(in));
    }
    std::sort(ff.bases.begin(), ff.bases.end());
    ff.bases.erase(std::unique(ff.bases.begin(), ff.bases.end()), ff.bases.end());
  }

  const Module& m_;
  ModuleFrameFacts out_;
};

}  // namespace

unsigned access_bytes(const Instruction& in) {
  return std::max(1u, type_bits(in.type) / 8) * std::max<unsigned>(1, in.vec);
}

AddressFact operand_fact(const Module& m, const FrameFacts& ff, const Operand& op) {
  switch (op.kind) {
    case Operand::Kind::Reg:
      return ff.regs.at(op.reg);
    case Operand::Kind::Imm:
      return {Fact::Const, static_cast<int64_t>(op.imm)};
    case Operand::Kind::Symbol:
      return symbol_fact(m, op.symbol, 0);
    case Operand::Kind::Address:
      if (op.has_reg) return arith(ff.regs.at(op.reg), {Fact::Const, op.offset}, Opcode::Add);
      if (op.has_symbol) return symbol_fact(m, op.symbol, op.offset);
      return {Fact::Const, op.offset};
    case Operand::Kind::Vector:
      return combine(m, ff, op.elems, 0);
    default:
      return {Fact::Other, 0};  // special registers, float immediates
  }
}

int64_t object_end(const FrameFacts& facts, int64_t base) {
  auto next = std::upper_bound(facts.bases.begin(), facts.bases.end(), base);
  return next == facts.bases.end() ? std::max(facts.frame_bytes, base + 1) : *next;
}

ModuleFrameFacts compute_frame_facts(const Module& module) { return FactBuilder(module).run(); }

}  // namespace warptlm
