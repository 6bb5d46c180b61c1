// The PTX front end: text in, decoded Module out. Accepts the PTX that clang
// and nvcc emit for plain SIMT kernels (see tests/frontend/test_parser*.cc
// for the covered constructs); anything it does not understand is a
// PtxError naming the construct and its position, never a silent skip.
#pragma once

#include <string>

#include "frontend/ir.h"
#include "frontend/ptx_error.h"

namespace warptlm {

// Parses a whole module. Errors name `source_name` as the file.
Module parse_ptx(const std::string& text, const std::string& source_name = "<string>");

// Reads and parses `path`; an unreadable file is a PtxError at line 0, col 0.
Module parse_ptx_file(const std::string& path);

}  // namespace warptlm
