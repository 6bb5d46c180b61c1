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
    case UnitKind::Tensor:
      return "tensor";
  }
  return "?";
}

}  // namespace warptlm
