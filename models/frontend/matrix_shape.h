// The sizes of tensor-core fragments (docs/tensor-cores.md): how many
// elements of a matrix each thread holds and how they pack into registers.
// The parser checks fragment operands against them and the semantics reads
// and writes fragments by them, so both use this one definition.
#pragma once

#include "frontend/ir.h"

namespace warptlm {

// A (row, column) of a matrix, or its rows and columns.
struct MatrixPos {
  unsigned row = 0, col = 0;
};

// The rows and columns of fragment `f` (A: m x k, B: k x n, C and D: m x n).
MatrixPos matrix_dims(const MmaInfo& info, MatrixFrag f);

// Elements per thread of fragment `f` of element type `elem` (tf32 as F32):
// the matrix's elements over the 32 threads, except wmma's .f16 A and B,
// which hold 16 per thread on every shape (the PTX ISA's 8 .f16x2 registers).
unsigned fragment_elements(const MmaInfo& info, Opcode op, MatrixFrag f, Type elem);

// The register a fragment element packs into (.f64 one per .f64 register,
// narrower elements into .b32) and how many one register holds.
inline Type fragment_register_type(Type elem) { return elem == Type::F64 ? Type::F64 : Type::B32; }
inline unsigned elements_per_register(Type elem) {
  return type_bits(elem) >= 32 ? 1 : 32 / type_bits(elem);
}

}  // namespace warptlm
