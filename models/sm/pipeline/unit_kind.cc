#include "sm/pipeline/unit_kind.h"

namespace warptlm {

const char* unit_kind_name(UnitKind kind) {
  switch (kind) {
    case UnitKind::Sp:
      return "sp";
    case UnitKind::Sfu:
      return "sfu";
    case UnitKind::LdSt:
      return "ldst";
  }
  return "?";
}

UnitKind unit_of(const Instruction& in) {
  switch (in.op) {
    case Opcode::Sin:
    case Opcode::Cos:
    case Opcode::Ex2:
    case Opcode::Lg2:
    case Opcode::Rsqrt:
    case Opcode::Rcp:
    case Opcode::Sqrt:
      return UnitKind::Sfu;
    case Opcode::Div:
      // Integer division is a sequence of ordinary integer operations on the
      // hardware; float division goes through the reciprocal unit.
      return is_float(in.type) ? UnitKind::Sfu : UnitKind::Sp;
    case Opcode::Ld:
    case Opcode::St:
    case Opcode::Atom:
    case Opcode::Red:
      return UnitKind::LdSt;
    default:
      return UnitKind::Sp;
  }
}

}  // namespace warptlm
