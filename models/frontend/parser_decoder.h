// Turns one parsed instruction (opcode, modifiers, raw operands) into an IR
// Instruction. There is one decode function per opcode family; each takes
// the modifiers and operands it understands through the checked helpers
// below, so every malformed instruction ends in a PtxError at the offending
// token.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "frontend/ir.h"
#include "frontend/parser_modifiers.h"

namespace warptlm::ptx {

// An operand as the parser read it, before the opcode says what it must be.
struct RawOperand {
  Operand op;
  SourceLoc loc;
  std::string name;                  // Kind::Label: the label; Kind::Function: the callee
  std::vector<SourceLoc> elem_locs;  // Kind::Vector: where each element is
  // Kind::Address written [a, b, ...] (texture and surface instructions):
  // the operands after the first, which is the address's base.
  std::vector<RawOperand> tuple;
};

// What a source operand may be, besides a register.
enum OperandAllow : unsigned {
  kAllowImm = 1,      // integer / float literal
  kAllowSpecial = 2,  // %tid.x and friends
  kAllowSymbol = 4,   // the address of a variable
  kAllowNegate = 8,   // !p (predicate operands of setp/set/vote)
};

class Decoder {
 public:
  // `carry_flag` returns the index of the enclosing function's hidden carry
  // register (kCarryFlagReg), declaring it on first use.
  Decoder(const std::string& source, std::string opname, SourceLoc loc, ModifierList& mods,
          std::vector<RawOperand>& raw, int pipe, Instruction& inst,
          std::function<uint32_t()> carry_flag);

  Instruction& inst;
  ModifierList& mods;

  [[noreturn]] void fail(SourceLoc at, const std::string& message) const;
  [[noreturn]] void fail(const std::string& message) const { fail(loc_, message); }
  const std::string& name() const { return name_; }

  // ---- modifiers ----
  // Exactly one type suffix, which must be in `allowed`; returns it.
  Type one_type(TypeSet allowed);
  // Two type suffixes (cvt.dtype.atype, set.dtype.stype, slct.dtype.stype).
  void two_types(TypeSet first_allowed, TypeSet second_allowed, Type* first, Type* second);
  // Fails naming a type PTX has but warptlm does not model (.f16x2, .bf16,
  // ...) when one is among the modifiers.
  void refuse_unmodelled_type();
  // Rejects any modifier no one took. Called by the driver after decoding.
  void finish() const;

  // ---- operands ----
  size_t count() const { return raw_.size(); }
  void expect_count(size_t n) const { expect_count(n, n); }
  void expect_count(size_t lo, size_t hi) const;
  // Whether the instruction wrote `d|p` (the second destination is raw(1)).
  bool has_pipe() const { return pipe_ >= 0; }
  void no_pipe() const;
  const RawOperand& raw(size_t i) const { return raw_[i]; }

  // A destination register of type `t` (predicate or not), or `_`.
  Operand dst(size_t i, Type t, bool sink_ok = true) const;
  // A source of type `t`: register, plus whatever `allow` permits. Literals
  // are normalised to `t` (decimal floats become ImmF32 for .f32, ...).
  Operand src(size_t i, Type t, unsigned allow = kAllowImm) const;
  // [reg], [reg+imm], [symbol+imm] or [imm].
  Operand address(size_t i) const;
  // Operand i written [a, b, ...]: appends a, b, ... to the operand list
  // and returns the index of a (the caller checks them with src() and
  // vector(), and their messages name "element k of operand i"). The
  // brackets must hold lo to hi operands, the first a register.
  size_t splice_tuple(size_t i, size_t lo, size_t hi);
  // {a, b, ...} with exactly n elements: destinations (registers or `_`) or
  // sources (registers or literals).
  Operand vector(size_t i, unsigned n, Type t, bool is_dst) const;
  Operand label(size_t i) const;
  // The carry flag register as an operand (declared on first use).
  Operand carry_flag() const;

 private:
  std::string what(size_t i) const;  // "operand 2 of 'add'"
  Operand literal(const RawOperand& r, Type t, size_t i) const;
  void check_register(const RawOperand& r, Type t, size_t i) const;
  Operand dst_element(const RawOperand& e, Type t, size_t i) const;
  Operand src_element(const RawOperand& e, Type t, size_t i) const;

  const std::string& source_;
  std::string name_;
  SourceLoc loc_;
  std::vector<RawOperand>& raw_;
  // Tuple elements spliced at the end of raw_: (operand index, element).
  size_t written_ = 0;
  std::vector<std::pair<size_t, size_t>> spliced_;
  int pipe_;
  std::function<uint32_t()> carry_flag_;
};

using DecodeFn = void (*)(Decoder&);

// The half-precision forms (.f16, .bf16, .f16x2, .bf16x2) of add, sub, mul,
// fma, abs, neg, min, max, ex2 and tanh: the opcode's decoder has set
// inst.op and inst.type and hands over the modifiers and operands.
void decode_half_arith(Decoder& d);

// The decoder of opcode `name` (the part before the first dot), or nullptr.
DecodeFn find_decoder(const std::string& name);

// Per-family tables consulted by find_decoder.
DecodeFn find_arith_decoder(const std::string& name);    // add ... copysign
DecodeFn find_bitwise_decoder(const std::string& name);  // and ... prmt
DecodeFn find_convert_decoder(const std::string& name);  // mov, cvt, cvta, setp, selp, ...
DecodeFn find_float_decoder(const std::string& name);    // rcp, sqrt, ex2, sin, testp ...
DecodeFn find_memory_decoder(const std::string& name);   // ld, st, atom, red
DecodeFn find_control_decoder(const std::string& name);  // bra, call, bar, vote, shfl ...
DecodeFn find_texture_decoder(const std::string& name);  // tex tld4 txq suld sust suq
DecodeFn find_tensor_decoder(const std::string& name);   // wmma mma ldmatrix
DecodeFn find_async_decoder(const std::string& name);    // cp (cp.async ...), mbarrier

}  // namespace warptlm::ptx
