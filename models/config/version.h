// The warptlm version (the VERSION file at the top of the repository), as the
// CLI's --version, the Python package's __version__ and statistics files say it.
#pragma once

namespace warptlm {

const char* version();

}  // namespace warptlm
