// Insertion of explicit reconvergence markers (Opcode::Reconverge) for the
// explicit paired-path-comparison scheme, which compares paths only there.
#pragma once

#include <vector>

#include "frontend/ir.h"

namespace warptlm {

// Returns `module` with one Reconverge instruction inserted before each
// instruction whose PC is in `at` (duplicates are ignored). Every PC moves:
// Instruction::pc, Function::begin/end, Function::labels and Label operand
// targets are renumbered. A label or branch that named a PC in `at` now names
// the marker in front of it, so every path into that block executes it; a
// marker at a function's first PC becomes its new begin.
Module insert_markers(const Module& module, std::vector<Pc> at);

}  // namespace warptlm
