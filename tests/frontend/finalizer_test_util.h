// Test-only helpers for the finalizer tests: ModuleBuilder builds decoded
// modules by hand (exact CFG shapes, independent of the PTX parser;
// instructions are appended in order, 8 bytes each, labels resolved by
// build()); the ptx_* helpers wrap, parse and finalize PTX text.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "frontend/ir.h"
#include "frontend/program.h"
#include "frontend/ptx_parser.h"

namespace warptlm::testing {

class ModuleBuilder {
 public:
  // Starts a new function; the previous one ends here.
  ModuleBuilder& func(const std::string& name, bool entry = true) {
    close_function();
    Function f;
    f.name = name;
    f.is_entry = entry;
    f.begin = f.end = pc();
    m_.functions.push_back(f);
    return *this;
  }

  // A register of the current function, declared on first use.
  Operand r(const std::string& name, Type type = Type::B32) {
    Function& f = m_.functions.back();
    uint32_t idx = 0;
    while (idx < f.regs.size() && f.regs[idx].name != name) ++idx;
    if (idx == f.regs.size()) f.regs.push_back({name, type});
    Operand op;
    op.kind = Operand::Kind::Reg;
    op.reg = idx;
    op.reg_type = f.regs[idx].type;
    return op;
  }

  // A symbol; Local and Param symbols belong to the current function.
  uint32_t symbol(const std::string& name, Space space, uint64_t size, uint64_t offset = 0) {
    Symbol s;
    s.name = name;
    s.space = space;
    s.size = size;
    s.offset = offset;
    if (space == Space::Local || space == Space::Param)
      s.function = static_cast<int32_t>(m_.functions.size()) - 1;
    m_.symbols.push_back(s);
    return static_cast<uint32_t>(m_.symbols.size() - 1);
  }

  // Declares a formal (.param) of the current function; `ret` for a return value.
  uint32_t formal(const std::string& name, bool ret = false) {
    uint32_t s = symbol(name, Space::Param, 4);
    (ret ? m_.functions.back().rets : m_.functions.back().params).push_back(s);
    return s;
  }

  static Operand imm(int64_t v) {
    Operand op;
    op.kind = Operand::Kind::Imm;
    op.imm = static_cast<uint64_t>(v);
    return op;
  }
  static Operand special(SpecialReg s, uint8_t comp = 0) {
    Operand op;
    op.kind = Operand::Kind::Special;
    op.sreg = s;
    op.comp = comp;
    return op;
  }
  static Operand sym(uint32_t s) {
    Operand op;
    op.kind = Operand::Kind::Symbol;
    op.symbol = s;
    return op;
  }
  Operand addr(const std::string& reg, int64_t offset = 0) {
    Operand op = r(reg, Type::B64);
    op.kind = Operand::Kind::Address;
    op.has_reg = true;
    op.offset = offset;
    return op;
  }
  static Operand addr_sym(uint32_t s, int64_t offset = 0) {
    Operand op;
    op.kind = Operand::Kind::Address;
    op.has_symbol = true;
    op.symbol = s;
    op.offset = offset;
    return op;
  }
  static Operand vec(std::vector<Operand> elems) {
    Operand op;
    op.kind = Operand::Kind::Vector;
    op.elems = std::move(elems);
    return op;
  }
  static Operand callee(uint32_t func) {
    Operand op;
    op.kind = Operand::Kind::Function;
    op.func = func;
    return op;
  }

  ModuleBuilder& label(const std::string& name) {
    m_.functions.back().labels[name] = pc();
    return *this;
  }

  // Appends an instruction; the returned reference is valid until the next one.
  Instruction& op(Opcode opcode, std::vector<Operand> ops, Type type = Type::S32,
                  Space space = Space::Generic) {
    Instruction in;
    in.op = opcode;
    in.type = type;
    in.space = space;
    in.ops = std::move(ops);
    in.pc = pc();
    in.function = static_cast<uint32_t>(m_.functions.size() - 1);
    in.text = opcode_name(opcode);
    m_.code.push_back(std::move(in));
    return m_.code.back();
  }

  // `@guard bra target` (guard "" = unconditional; "!%p" negates).
  Instruction& bra(const std::string& target, const std::string& guard = "", bool uni = false) {
    Operand l;
    l.kind = Operand::Kind::Label;
    fixups_.push_back({m_.code.size(), target});
    Instruction& in = op(Opcode::Bra, {l}, Type::None);
    in.uni = uni;
    set_guard(in, guard);
    return in;
  }
  Instruction& ret(const std::string& guard = "") {
    Instruction& in = op(Opcode::Ret, {}, Type::None);
    set_guard(in, guard);
    return in;
  }
  // Filler: `add.s32 %x, %x, 1`.
  Instruction& work() { return op(Opcode::Add, {r("%x"), r("%x"), imm(1)}); }
  // `setp.lt.s32 p, a, b`.
  Instruction& setp(const std::string& p, Operand a, Operand b) {
    Instruction& in = op(Opcode::Setp, {r(p, Type::Pred), Operand{}, a, b});
    in.cmp = CmpOp::Lt;
    return in;
  }

  Module build() {
    close_function();
    for (const auto& [index, name] : fixups_) {
      Instruction& in = m_.code[index];
      in.ops[0].target = m_.functions[in.function].labels.at(name);
    }
    return m_;
  }

 private:
  Pc pc() const { return m_.code.size() * kInstrBytes; }
  void close_function() {
    if (!m_.functions.empty()) m_.functions.back().end = pc();
  }
  void set_guard(Instruction& in, std::string guard) {
    if (guard.empty()) return;
    in.has_guard = true;
    in.guard_negated = guard[0] == '!';
    if (in.guard_negated) guard.erase(0, 1);
    in.guard_reg = r(guard, Type::Pred).reg;
  }

  Module m_;
  std::vector<std::pair<size_t, std::string>> fixups_;
};

// A kernel `k(.param .u64 k_ptr, .param .u32 k_n)` around `body`, with
// registers %p<16>, %r<32>, %rd<16>.
inline std::string ptx_kernel(const std::string& body) {
  return ".version 7.0\n.target sm_70\n.address_size 64\n"
         ".visible .entry k(\n  .param .u64 k_ptr,\n  .param .u32 k_n\n)\n{\n"
         "  .reg .pred %p<16>;\n  .reg .b32 %r<32>;\n  .reg .b64 %rd<16>;\n" +
         body + "}\n";
}

inline Program finalize_ptx(const std::string& text, bool markers = false) {
  return finalize(parse_ptx(text, "test.ptx"), FinalizeOptions{markers});
}

// PC of `label` in function `fn`.
inline Pc label_pc(const Program& p, const std::string& label, uint32_t fn = 0) {
  return p.module.functions.at(fn).labels.at(label);
}

// The n-th conditional branch (PC order) of the program.
inline const BranchInfo& cond_branch(const Program& p, size_t n) {
  size_t seen = 0;
  for (const BranchInfo& b : p.branches)
    if (b.conditional && seen++ == n) return b;
  ADD_FAILURE() << "no conditional branch #" << n;
  static const BranchInfo none;
  return none;
}

}  // namespace warptlm::testing
