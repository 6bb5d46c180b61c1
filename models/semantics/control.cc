// Control: bra call ret exit trap bar membar reconverge. The semantics only
// reports what the instruction asks for; the SIMT unit moves PCs.
#include <algorithm>
#include <string>

#include "semantics/families.h"

namespace warptlm::sem {

namespace {

Outcome barrier(const Exec& x, Outcome out) {
  // A warp none of whose lanes executes the barrier does not arrive at it.
  if (!x.executed) return out;
  const unsigned first = static_cast<unsigned>(__builtin_ctzll(x.executed));
  out.control = Control::Barrier;
  // bar.red: d, a, b (Kind::None when absent), c.
  const size_t id = x.inst.barrier_red != BarrierRed::None ? 1 : 0;
  out.barrier_id = static_cast<uint32_t>(x.src(id, Type::U32)(first));
  if (x.has(id + 1) && x.op(id + 1).kind != Operand::Kind::None)
    out.barrier_count = static_cast<uint32_t>(x.src(id + 1, Type::U32)(first));
  if (id == 1) {
    const Source c = x.src(3, Type::Pred);
    for_lanes(x.executed, [&](unsigned lane) {
      if (c(lane)) out.barrier_votes |= LaneMask(1) << lane;
    });
  }
  return out;
}

constexpr uint32_t kMaxSleepNs = 1000000;  // PTX: at most 1 millisecond

// call (rets), %rd, (args), prototype: the function whose address the
// executed lanes hold. They must agree (a warp calls one function at a time
// here), and the function must take the call's arguments and return values.
Outcome indirect_call(const Exec& x, Outcome out) {
  if (!x.executed) return out;  // no lane calls
  const Source target = x.src(1, Type::U64);
  const unsigned first = static_cast<unsigned>(__builtin_ctzll(x.executed));
  const uint64_t a = target(first);
  for_lanes(x.executed, [&](unsigned l) {
    if (target(l) != a)
      throw LaneError(l, "indirect call: lanes " + std::to_string(first) + " and " +
                             std::to_string(l) +
                             " call different functions in one warp instruction (divergent "
                             "function pointers are not supported)");
  });
  const Module& m = x.module;
  const uint64_t f = (a - kFunctionAddressBase) / 16;
  if (a < kFunctionAddressBase || (a - kFunctionAddressBase) % 16 != 0 || f >= m.functions.size() ||
      !std::binary_search(m.address_taken.begin(), m.address_taken.end(), f)) {
    throw LaneError(first, "indirect call through " + hex_string(a) +
                               ", which is not the address of a function (a function's "
                               "address comes from mov or a .global initialiser)");
  }
  const Function& fn = m.functions[f];
  const size_t rets = x.op(0).elems.size(), args = x.op(2).elems.size();
  if (args != fn.params.size() || rets > fn.rets.size())
    throw LaneError(first, "indirect call to '" + fn.name + "' with " + std::to_string(args) +
                               " argument(s) and " + std::to_string(rets) +
                               " return value(s); it takes " + std::to_string(fn.params.size()) +
                               " and returns " + std::to_string(fn.rets.size()));
  out.control = Control::Call;
  out.callee = static_cast<uint32_t>(f);
  out.target = fn.begin;
  return out;
}

}  // namespace

Outcome exec_control(const Exec& x) {
  Outcome out;
  out.executed = x.executed;
  switch (x.inst.op) {
    case Opcode::Bra: {
      const Operand& target = x.op(0);
      if (target.kind != Operand::Kind::Label) x.unsupported("bra needs a label");
      out.control = Control::Branch;
      out.target = target.target;
      return out;
    }
    case Opcode::Call: {
      const Operand& callee = x.op(1);
      if (callee.kind == Operand::Kind::Reg) return indirect_call(x, out);
      if (callee.kind != Operand::Kind::Function || callee.func >= x.module.functions.size())
        x.unsupported("call needs a known function");
      out.control = Control::Call;
      out.callee = callee.func;
      out.target = x.module.functions[callee.func].begin;
      return out;
    }
    case Opcode::Ret:
      out.control = Control::Ret;
      return out;
    case Opcode::Exit:
      out.control = Control::Exit;
      return out;
    case Opcode::Trap:
      // Aborts the kernel; the executor reports it. A trap no lane executes
      // (guard false everywhere) does nothing.
      if (x.executed) out.control = Control::Trap;
      return out;
    case Opcode::Bar:
      return barrier(x, out);
    case Opcode::Membar:
    case Opcode::Reconverge:
      return out;  // no effect on data in a functional model
    case Opcode::Nanosleep: {
      const Source t = x.src(0, Type::U32);
      for_lanes(x.executed, [&](unsigned lane) {
        out.sleep_ns =
            std::max(out.sleep_ns, static_cast<uint32_t>(std::min<uint64_t>(t(lane), kMaxSleepNs)));
      });
      return out;
    }
    // Exec-mask instructions: the executing lanes (defer) or the mask number
    // and label; the exec_mask unit does the rest.
    case Opcode::EmaskDefer:
    case Opcode::EmaskJoin: {
      const Operand& mask = x.op(0);
      if (mask.kind != Operand::Kind::Imm) x.unsupported("needs a mask number");
      out.control = x.inst.op == Opcode::EmaskDefer ? Control::MaskDefer : Control::MaskJoin;
      out.target = mask.imm;
      return out;
    }
    case Opcode::EmaskBranchz: {
      const Operand& target = x.op(0);
      if (target.kind != Operand::Kind::Label) x.unsupported("emask.branchz needs a label");
      out.control = Control::MaskBranchZ;
      out.target = target.target;
      return out;
    }
    default:
      x.unsupported("not a control opcode");
  }
}

}  // namespace warptlm::sem
