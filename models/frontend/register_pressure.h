// How many 32-bit registers a thread of a function needs: the peak number of
// its PTX registers live at once (docs/executor.md, "Occupancy"). PTX
// declares a fresh virtual register for nearly every value; ptxas allocates
// physical registers to the live ones, so the declared count overstates
// what a CTA occupies, several times over for nvcc's code.
#pragma once

#include <cstdint>

#include "frontend/ir.h"

namespace warptlm {

// The peak, over the instructions of `module.functions[function]`, of the
// 32-bit registers live there (a 64-bit register counts twice, a 16-bit one
// once, predicates not at all: they have their own file). At a call the
// callee's own peak is added to what is live across the call, transitively
// (a recursive call adds nothing more). Liveness is the classic backward
// data flow over the function's CFG; a guarded write does not end a
// register's life.
unsigned register_pressure(const Module& module, uint32_t function);

// The 32-bit registers one register of type t takes: 2 for 64-bit types,
// 0 for predicates (their own file), else 1.
inline unsigned register_units(Type t) {
  return t == Type::Pred || t == Type::None ? 0 : (type_bits(t) + 31) / 32;
}

}  // namespace warptlm
