#include "transaction/gpu_extension.h"

namespace warptlm {

const char* access_kind_name(AccessKind kind) {
  switch (kind) {
    case AccessKind::Load:
      return "load";
    case AccessKind::Store:
      return "store";
    case AccessKind::Atomic:
      return "atomic";
    case AccessKind::Fetch:
      return "fetch";
    case AccessKind::Writeback:
      return "writeback";
  }
  return "unknown";
}

}  // namespace warptlm
