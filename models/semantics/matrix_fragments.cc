#include "semantics/matrix_fragments.h"

namespace warptlm::sem {

namespace {

// The ISA's per-thread layouts of mma: lane = 4 * group + t (group 0..7,
// t 0..3 within the group).
MatrixPos mma_position(const MmaInfo& i, MatrixFrag f, unsigned lane, unsigned j) {
  const unsigned g = lane >> 2, t = lane & 3;
  const unsigned abits = i.a_tf32 ? 32 : type_bits(i.a);
  if (f == MatrixFrag::C || f == MatrixFrag::D) {
    if (i.m == 8) return {g, t * 2 + j};         // m8n8: c0, c1
    return {g + 8 * (j >> 1), t * 2 + (j & 1)};  // m16n8
  }
  if (abits == 64) return f == MatrixFrag::A ? MatrixPos{g, t} : MatrixPos{t, g};  // m8n8k4 .f64
  if (abits == 32) {                                                               // .tf32
    if (f == MatrixFrag::A) return {g + 8 * (j & 1), t + 4 * (j >> 1)};
    return {t + 4 * j, g};
  }
  if (abits == 16) {
    if (f == MatrixFrag::A) return {g + 8 * ((j >> 1) & 1), t * 2 + (j & 1) + 8 * (j >> 2)};
    return {t * 2 + (j & 1) + 8 * (j >> 1), g};
  }
  // 8-bit inputs.
  if (i.m == 8) return f == MatrixFrag::A ? MatrixPos{g, t * 4 + j} : MatrixPos{t * 4 + j, g};
  if (f == MatrixFrag::A) return {g + 8 * ((j >> 2) & 1), t * 4 + (j & 3) + 16 * (j >> 3)};
  return {t * 4 + (j & 3) + 16 * (j >> 2), g};
}

}  // namespace

MatrixPos fragment_position(const MmaInfo& info, Opcode op, MatrixFrag f, unsigned lane,
                            unsigned j) {
  if (op == Opcode::Mma) return mma_position(info, f, lane, j);
  const MatrixPos d = matrix_dims(info, f);
  // A load's or store's element type is in `a`.
  const Type elem = op != Opcode::WmmaMma ? info.a
                    : f == MatrixFrag::A  ? info.a
                    : f == MatrixFrag::B  ? info.b
                    : f == MatrixFrag::C  ? info.c
                                          : info.d;
  const unsigned per = fragment_elements(info, op, f, elem);
  const unsigned linear = (lane * per + j) % (d.row * d.col);
  return {linear / d.col, linear % d.col};
}

}  // namespace warptlm::sem
