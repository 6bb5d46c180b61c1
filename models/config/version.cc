#include "config/version.h"

#include "warptlm_version.h"

namespace warptlm {

const char* version() { return WARPTLM_VERSION_STRING; }

}  // namespace warptlm
