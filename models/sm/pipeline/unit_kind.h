// The kinds of execution pipeline of an SM and which one runs an instruction.
#pragma once

#include <cstdint>

#include "frontend/ir.h"

namespace warptlm {

enum class UnitKind : uint8_t { Sp, Sfu, LdSt, Tensor };
constexpr unsigned kUnitKinds = 4;

const char* unit_kind_name(UnitKind kind);  // "sp", "sfu", "ldst", "tensor"

// The instructions that access memory through the LD/ST unit (and so may
// need an L1 miss register): loads, stores and atomics, texture fetches and
// surface accesses, the tensor-core fragment loads and stores, cp.async and
// mbarrier. Inline: asked with unit_of() at every issue attempt.
inline bool accesses_memory(Opcode op) {
  switch (op) {
    case Opcode::Ld:
    case Opcode::St:
    case Opcode::Atom:
    case Opcode::Red:
    case Opcode::Tex:  // the texture path shares the LD/ST unit's L1
    case Opcode::Tld4:
    case Opcode::Suld:
    case Opcode::Sust:
    case Opcode::WmmaLoad:  // fragments move through the LD/ST unit
    case Opcode::WmmaStore:
    case Opcode::Ldmatrix:
    case Opcode::CpAsync:   // a global load and a shared store without a register
    case Opcode::Mbarrier:  // a shared-memory read-modify-write
      return true;
    default:
      return false;
  }
}

// Tensor: the matrix multiply-accumulates (wmma.mma, mma.sync).
// Sfu: the transcendental and approximate float operations (sin, cos, ex2,
// lg2, rsqrt, rcp, sqrt, and div of floats). LdSt: every memory access (ld,
// st, atom, red) in every state space, ld.param and ld.const included, since
// they all go through the LD/ST unit. Sp: everything else: integer, fp16/32/64
// arithmetic, conversions, warp operations, control flow, barriers and membar
// (whose ordering the SM enforces itself).
// Inline: the SM asks for every issue attempt.
inline UnitKind unit_of(const Instruction& in) {
  switch (in.op) {
    case Opcode::Sin:
    case Opcode::Cos:
    case Opcode::Ex2:
    case Opcode::Tanh:
    case Opcode::Lg2:
    case Opcode::Rsqrt:
    case Opcode::Rcp:
    case Opcode::Sqrt:
      return UnitKind::Sfu;
    case Opcode::Div:
      // Integer division is a sequence of ordinary integer operations on the
      // hardware; float division goes through the reciprocal unit.
      return is_float(in.type) ? UnitKind::Sfu : UnitKind::Sp;
    case Opcode::Txq:  // texture and surface queries read the descriptor there too
    case Opcode::Suq:
      return UnitKind::LdSt;
    case Opcode::WmmaMma:
    case Opcode::Mma:
      return UnitKind::Tensor;
    default:
      return accesses_memory(in.op) ? UnitKind::LdSt : UnitKind::Sp;
  }
}

}  // namespace warptlm
