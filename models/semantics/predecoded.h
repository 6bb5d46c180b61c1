// Pre-decoded handlers for the instructions kernels execute most: 32- and
// 64-bit integer arithmetic, logic and shifts, comparisons into predicates,
// selects, moves, integer conversions, f32 add/sub/mul, f32/f64 comparisons,
// branches, and scalar 32- and 64-bit loads and stores through a register's
// or a variable's address
// (docs/timing-performance.md). An instruction of one of these forms is
// decoded once per launch into a handler and the byte offsets of its
// registers, and runs on the registers in their stored width (32 lanes of a
// .u32 add as 32 host additions of uint32_t), where execute() decodes the
// operands for every execution and computes in 64-bit values. Every other
// form, and every operand this does not cover, goes through execute(): a
// handler exists only where it gives execute()'s result bit for bit, which
// tests/semantics/predecoded_test.cc checks form by form against execute().
#pragma once

#include <cstdint>

#include "semantics/semantics.h"

namespace warptlm {

struct PredecodedInstruction;
// Runs the instruction on lanes `m` (guard applied) of a frame's registers.
using PredecodedHandler = void (*)(const PredecodedInstruction&, uint8_t* regs, LaneMask m,
                                   unsigned warp_size, WarpEnvironment& env);

struct PredecodedInstruction {
  PredecodedHandler run = nullptr;  // none (and not a branch): execute() runs it
  bool branch = false;              // a bra to `target` (no register effect)
  bool has_guard = false;
  LaneMask guard_flip = 0;  // ~0 for @!p
  uint32_t guard = 0;       // byte offset of the guard predicate
  // Byte offsets of the operands' registers in the frame's storage:
  // destination, then the sources in PTX order.
  uint32_t d = 0, a = 0, b = 0, c = 0;
  uint64_t imm = 0;                   // the immediate source, as its register would hold it
  uint64_t imm2 = 0;                  // selp's second immediate source
  Pc target = 0;                      // bra
  SpecialReg sreg = SpecialReg::Tid;  // a move from a special register
  uint8_t comp = 0;
  // A load or store: it may throw MemoryFault (out of bounds, misaligned),
  // so it runs where execute()'s faults are caught (WarpIssuer::execute_at).
  bool memory = false;
  Space space = Space::Generic;       // its state space
  uint32_t var = 0;                   // [var + imm]: the variable's symbol index
  const Instruction* inst = nullptr;  // for a misaligned access's message
};

// The handler of `in` for frames whose registers have the slots `slots` (of
// the function holding `in`), or one without a handler. A memory handler keeps
// a pointer to `in`.
PredecodedInstruction predecode(const Instruction& in, const RegSlot* slots);

// What execute(module, in, regs, active, env) does, for an instruction `p`
// predecodes with a handler (env answers moves from special registers, loads and
// stores, with the same calls as execute() makes): runs it on the frame's
// registers `regs` and returns true with its outcome in `out`; a load or store
// throws the MemoryFault execute() would, after the same accesses and register
// writes. Returns false, touching nothing, when `p` has no handler.
inline bool run_predecoded(const PredecodedInstruction& p, uint8_t* regs, LaneMask active,
                           unsigned warp_size, WarpEnvironment& env, Outcome& out) {
  if (!p.run && !p.branch) return false;
  LaneMask m = active & full_mask(warp_size);
  if (p.has_guard) m &= *reinterpret_cast<const LaneMask*>(regs + p.guard) ^ p.guard_flip;
  out = Outcome{};
  out.executed = m;
  if (p.branch) {
    out.control = Control::Branch;
    out.target = p.target;
  } else {
    p.run(p, regs, m, warp_size, env);
  }
  return true;
}

}  // namespace warptlm
