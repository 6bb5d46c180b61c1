// The registers an operand names, and those an instruction reads and
// writes, for the analyses that walk them (register pressure, CTA
// uniformity, registers read before written).
#pragma once

#include <cstddef>
#include <cstdint>

#include "frontend/ir.h"

namespace warptlm {

// Calls f(register) for each register `op` names: a register, an address's
// base, a vector's elements.
template <class F>
void each_register(const Operand& op, F&& f) {
  switch (op.kind) {
    case Operand::Kind::Reg:
      f(op.reg);
      break;
    case Operand::Kind::Address:
      if (op.has_reg) f(op.reg);
      break;
    case Operand::Kind::Vector:
      for (const Operand& e : op.elems) each_register(e, f);
      break;
    default:
      break;
  }
}

// Calls f(register) for each register instruction `in` writes: its
// destination operands (registers and vector elements; an address among
// them writes nothing). A guard is the caller's business.
template <class F>
void each_register_written(const Instruction& in, F&& f) {
  const size_t dests = destination_count(in);
  for (size_t i = 0; i < dests && i < in.ops.size(); ++i)
    if (in.ops[i].kind != Operand::Kind::Address) each_register(in.ops[i], f);
}

// Calls f(register) for each register `in` reads through its operands: its
// sources, and the base of any address (a destination's too). The guard
// predicate is not an operand: callers that count it read in.guard_reg.
template <class F>
void each_register_read(const Instruction& in, F&& f) {
  const size_t dests = destination_count(in);
  for (size_t i = 0; i < in.ops.size(); ++i)
    if (i >= dests || in.ops[i].kind == Operand::Kind::Address) each_register(in.ops[i], f);
}

}  // namespace warptlm
