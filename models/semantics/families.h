// The instruction families, one per source file; semantics.cc dispatches to
// them by opcode. Internal to the semantics library.
#pragma once

#include <cstdint>
#include <string>

#include "frontend/hex_text.h"
#include "semantics/operands.h"

namespace warptlm::sem {

void exec_move(const Exec& x);            // mov (incl. vector pack/unpack)
void exec_int_arith(const Exec& x);       // add..max on integer types
void exec_carry_arith(const Exec& x);     // add/sub/mad with the carry flag
void exec_float_arith(const Exec& x);     // add..max, fma, rcp.., copysign on floats
void exec_half_arith(const Exec& x);      // the same on .f16 .bf16 .f16x2 .bf16x2
void exec_bits(const Exec& x);            // logic, shifts, bit fields, popc/clz/brev, prmt
void exec_compare_select(const Exec& x);  // setp, set, selp, slct, testp
void exec_convert(const Exec& x);         // cvt, cvta
void exec_memory(const Exec& x);          // ld, st, atom, red
void exec_warp(const Exec& x);            // vote, shfl, activemask, redux
void exec_texture(const Exec& x);         // tex, tld4, txq, suld, sust, suq
void exec_tensor(const Exec& x);          // wmma.load/store/mma, mma, ldmatrix
void exec_async(const Exec& x);           // cp.async (+ commit/wait groups), mbarrier
Outcome exec_control(const Exec& x);      // bra, call, ret, exit, trap, bar, membar, reconverge

}  // namespace warptlm::sem
