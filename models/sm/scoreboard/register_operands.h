// Which registers an instruction reads and writes, precomputed once per
// instruction for the scoreboard and the operand collectors. Registers are
// indices into the enclosing Function::regs: predicates and the hidden carry
// flag (kCarryFlagReg) are registers like any other.
#pragma once

#include <cstdint>
#include <vector>

#include "frontend/ir.h"

namespace warptlm {

// The counts and both lists sit at the front of one cache-line-aligned row:
// an issue attempt reads a row per warp it looks at, and with up to 15
// registers (nearly every instruction) that is one host cache line.
struct alignas(64) RegisterOperands {
  static constexpr unsigned kMax = 24;
  uint8_t n_reads = 0;
  uint8_t n_writes = 0;
  // A call or a return: it switches register frames, so the SM lets earlier
  // writes drain first (kept here, beside the lists an issue attempt reads
  // anyway, so that a blocked attempt need not read the instruction).
  bool frame_change = false;
  // It may reach state other SMs share (reaches_beyond_sm()): a parallel
  // cycle issues it in its serial phase (docs/parallel-sms.md).
  bool beyond_sm = false;
  // reads() then writes(), packed.
  uint32_t regs[2 * kMax] = {};
  // Distinct registers, in operand order. Reads: the guard predicate first, then
  // sources, address base registers, vector elements, the carry flag for
  // carry_in.
  const uint32_t* reads() const { return regs; }
  // Distinct registers: destinations (incl. setp's and shfl's second predicate,
  // vector ld / mov-unpack destinations, the carry flag for carry_out).
  const uint32_t* writes() const { return regs + n_reads; }
};

// Whether executing `in` may read or write state that is not its SM's own:
// global memory (global and generic addresses, cp.async), texture and surface
// descriptors and data, and calls (printf's console and assert, whose callee
// is known only at run time for an indirect call). Shared, local, constant and
// parameter memory, registers and every other instruction are the SM's own
// or read-only.
bool reaches_beyond_sm(const Instruction& in);

// The registers of one instruction. Throws std::invalid_argument naming the
// instruction when it has more than kMax distinct reads or writes.
RegisterOperands register_operands(const Instruction& in);

class OperandTable {  // one per Module, built once: operands of every instruction by pc
 public:
  explicit OperandTable(const Module& module);
  // Throws std::invalid_argument naming `pc` when no instruction is there.
  const RegisterOperands& at(Pc pc) const {
    const Pc index = pc / kInstrBytes;
    if (pc % kInstrBytes != 0 || index >= table_.size()) bad_pc(pc);
    return table_[index];
  }
  size_t size() const { return table_.size(); }

 private:
  [[noreturn]] void bad_pc(Pc pc) const;
  std::vector<RegisterOperands> table_;
};

}  // namespace warptlm
