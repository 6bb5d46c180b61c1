// The PTX front end: text in, decoded Module out. Accepts the PTX that clang
// and nvcc emit for plain SIMT kernels (tests/frontend/test_parser*.cc list
// the covered constructs); anything it does not understand is a PtxError
// naming the construct and its position, never a silent skip.
//
// Choices the IR leaves open:
//  - Float literals are converted to the operand's type (.f32 -> ImmF32,
//    .f64 -> ImmF64); an integer literal in a float operand is an error.
//  - bar.warp.sync becomes Opcode::Membar without operands: under stack-based
//    reconvergence the lanes reaching it together already run in lockstep.
//  - bar.sync is barrier.sync.aligned (aligned = true).
//  - Cache operators, ld.nc and .relaxed/.acquire/.release scopes are
//    accepted and dropped (the model has no caches and is sequentially
//    consistent); carry arithmetic (.cc, addc, madc) is not supported.
//  - Static shared variables of all kernels share one segment
//    (Module::shared_static_size); every .extern .shared array starts at its
//    end, rounded up to the array's alignment.
//  - Call-site .param variables each get their own slot in the enclosing
//    function's parameter frame, after its return values and parameters.
#pragma once

#include <string>

#include "frontend/ir.h"
#include "frontend/ptx_error.h"

namespace warptlm {

// Parses a whole module. Errors name `source_name` as the file.
Module parse_ptx(const std::string& text, const std::string& source_name = "<string>");

// The text of the PTX file `path`. A missing, unreadable or empty file, or a
// directory, is a PtxError at line 0, col 0 naming it.
std::string read_ptx_file(const std::string& path);

// Reads and parses `path` (read_ptx_file's errors, then parse_ptx's).
Module parse_ptx_file(const std::string& path);

}  // namespace warptlm
