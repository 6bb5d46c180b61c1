// The registers an operand names, for the analyses that walk an
// instruction's reads and writes (register pressure, CTA uniformity).
#pragma once

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

}  // namespace warptlm
