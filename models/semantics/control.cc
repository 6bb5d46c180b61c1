// Control: bra call ret exit trap bar membar reconverge. The semantics only
// reports what the instruction asks for; the SIMT unit moves PCs.
#include "semantics/families.h"

namespace warptlm::sem {

namespace {

Outcome barrier(const Exec& x, Outcome out) {
  // A warp none of whose lanes executes the barrier does not arrive at it.
  if (!x.executed) return out;
  const unsigned first = static_cast<unsigned>(__builtin_ctzll(x.executed));
  out.control = Control::Barrier;
  out.barrier_id = static_cast<uint32_t>(x.src(0, Type::U32)(first));
  if (x.has(1)) out.barrier_count = static_cast<uint32_t>(x.src(1, Type::U32)(first));
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
      if (callee.kind != Operand::Kind::Function || callee.func >= x.module.functions.size())
        x.unsupported("call needs a known function (indirect calls are not supported)");
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
