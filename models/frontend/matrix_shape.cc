#include "frontend/matrix_shape.h"

namespace warptlm {

MatrixPos matrix_dims(const MmaInfo& info, MatrixFrag f) {
  switch (f) {
    case MatrixFrag::A:
      return {info.m, info.k};
    case MatrixFrag::B:
      return {info.k, info.n};
    default:
      return {info.m, info.n};
  }
}

unsigned fragment_elements(const MmaInfo& info, Opcode op, MatrixFrag f, Type elem) {
  const MatrixPos d = matrix_dims(info, f);
  const bool wmma = op == Opcode::WmmaLoad || op == Opcode::WmmaStore || op == Opcode::WmmaMma;
  if (wmma && (f == MatrixFrag::A || f == MatrixFrag::B) && elem == Type::F16) return 16;
  return d.row * d.col / 32;
}

}  // namespace warptlm
