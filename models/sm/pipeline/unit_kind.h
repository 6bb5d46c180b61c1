// The kinds of execution pipeline of an SM and which one runs an instruction.
#pragma once

#include <cstdint>

#include "frontend/ir.h"

namespace warptlm {

enum class UnitKind : uint8_t { Sp, Sfu, LdSt };
constexpr unsigned kUnitKinds = 3;

const char* unit_kind_name(UnitKind kind);  // "sp", "sfu", "ldst"

// Sfu: the transcendental and approximate float operations (sin, cos, ex2,
// lg2, rsqrt, rcp, sqrt, and div of floats). LdSt: every memory access (ld,
// st, atom, red) in every state space, ld.param and ld.const included, since
// they all go through the LD/ST unit. Sp: everything else: integer, fp16/32/64
// arithmetic, conversions, warp operations, control flow, barriers and membar
// (whose ordering the SM enforces itself).
UnitKind unit_of(const Instruction& in);

}  // namespace warptlm
