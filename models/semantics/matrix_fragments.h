// Where the elements of a tensor-core fragment live: for each thread of the
// 32-lane warp and each of its fragment elements, the (row, column) of the
// matrix it holds (docs/tensor-cores.md).
//
// wmma: the PTX ISA leaves the mapping unspecified ("the contents of a
// fragment are unspecified"); warptlm's is the matrix in row-major order dealt
// out to threads in turn, element j of thread t being element (t * per + j)
// mod (rows * cols), so fragments larger than the matrix (.f16 A and B hold 16
// elements per thread on every shape) hold it more than once. mma: the
// per-thread layouts the PTX ISA gives for each shape ("Matrix fragments for
// mma.m16n8k16" and the others).
#pragma once

#include <cstdint>

#include "frontend/ir.h"

namespace warptlm::sem {

struct MatrixPos {
  unsigned row = 0, col = 0;
};

// The rows and columns of fragment `f` (A: m x k, B: k x n, C and D: m x n).
MatrixPos matrix_dims(const MmaInfo& info, MatrixFrag f);

// Elements per thread of a fragment (of type `elem`, tf32 as F32).
unsigned fragment_elements(const MmaInfo& info, Opcode op, MatrixFrag f, Type elem);

// Element j of thread `lane`'s fragment f of a wmma or mma instruction.
MatrixPos fragment_position(const MmaInfo& info, Opcode op, MatrixFrag f, unsigned lane,
                            unsigned j);

}  // namespace warptlm::sem
