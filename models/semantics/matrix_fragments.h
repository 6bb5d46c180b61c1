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

#include "frontend/ir.h"
#include "frontend/matrix_shape.h"

namespace warptlm::sem {

// Element j of thread `lane`'s fragment f of a wmma or mma instruction.
MatrixPos fragment_position(const MmaInfo& info, Opcode op, MatrixFrag f, unsigned lane,
                            unsigned j);

}  // namespace warptlm::sem
