// Test support for the semantics: hand-built Instructions/Operands, a warp
// register file and a fake environment with byte-array memories per space.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "memory/address_map.h"
#include "semantics/register_file.h"
#include "semantics/semantics.h"

namespace warptlm::test {

inline uint64_t fbits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline uint64_t dbits(double d) {
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}
inline float as_f32(uint64_t b) {
  const uint32_t u = static_cast<uint32_t>(b);
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
inline double as_f64(uint64_t b) {
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}

// Memories of 4 KiB per state space; a generic address is resolved through
// address_map (global addresses are used as they are).
class FakeEnv : public WarpEnvironment {
 public:
  static constexpr size_t kMemBytes = 4096;
  struct Access {
    bool store;
    Space space;
    unsigned lane;
    uint64_t addr;
    unsigned size;
  };

  FakeEnv() {
    for (Space s : {Space::Global, Space::Shared, Space::Local, Space::Param, Space::Const})
      mem[s].assign(kMemBytes, 0);
  }
  uint64_t symbol_address(uint32_t symbol) override {
    ++symbol_lookups;
    return symbols.at(symbol);
  }
  uint64_t special(SpecialReg s, unsigned comp, unsigned lane) override {
    if (s == SpecialReg::Laneid) return lane;
    if (s == SpecialReg::Tid && comp == 0) return 100 + lane;
    return specials.at({s, comp});
  }
  void load(Space space, unsigned lane, uint64_t addr, void* dst, unsigned size) override {
    log.push_back({false, space, lane, addr, size});
    std::memcpy(dst, at(space, addr, size, lane), size);
  }
  void store(Space space, unsigned lane, uint64_t addr, const void* src, unsigned size) override {
    log.push_back({true, space, lane, addr, size});
    std::memcpy(at(space, addr, size, lane), src, size);
  }

  uint8_t* at(Space space, uint64_t addr, unsigned size, unsigned lane) {
    if (space == Space::Generic) space = address_map::classify(addr, &addr);
    auto& m = mem[space];
    if (addr + size > m.size())
      throw MemoryFault(MemoryFault::Reason::OutOfBounds, space, addr, size, lane, "out of bounds");
    return m.data() + addr;
  }
  template <class T>
  void poke(Space s, uint64_t addr, T v) {
    std::memcpy(at(s, addr, sizeof v, 0), &v, sizeof v);
  }
  template <class T>
  T peek(Space s, uint64_t addr) {
    T v;
    std::memcpy(&v, at(s, addr, sizeof v, 0), sizeof v);
    return v;
  }

  std::map<Space, std::vector<uint8_t>> mem;
  std::map<std::pair<SpecialReg, unsigned>, uint64_t> specials;
  std::vector<uint64_t> symbols;
  unsigned symbol_lookups = 0;
  std::vector<Access> log;
};

// One warp with its register file (one function frame) and environment.
class Harness {
 public:
  explicit Harness(unsigned warp_size = 4) : warp_size_(warp_size) { module.functions.resize(1); }

  // A new register; the registers declared before keep their values.
  uint32_t reg(Type t) {
    auto& decls = module.functions[0].regs;
    decls.push_back({"%r" + std::to_string(decls.size()), t});
    RegisterLayout layout(decls, warp_size_);
    RegisterStorage storage;
    storage.reset(layout.bytes);
    const WarpRegisters before = regs(), after{storage.data(), layout.slots.data(), warp_size_};
    for (uint32_t r = 0; r < layout_.slots.size(); ++r)
      for (unsigned l = 0; l < warp_size_; ++l) after.set(r, l, before.get(r, l));
    layout_ = std::move(layout);
    storage_ = std::move(storage);
    return static_cast<uint32_t>(decls.size() - 1);
  }
  Operand r(uint32_t reg, bool negated = false) const {
    Operand o;
    o.kind = Operand::Kind::Reg;
    o.reg = reg;
    o.reg_type = module.functions[0].regs[reg].type;
    o.negated = negated;
    return o;
  }
  Operand addr(uint32_t reg, int64_t offset = 0) const {
    Operand o = r(reg);
    o.kind = Operand::Kind::Address;
    o.has_reg = true;
    o.offset = offset;
    return o;
  }
  static Operand imm(int64_t v) { return literal(Operand::Kind::Imm, static_cast<uint64_t>(v)); }
  static Operand f32(float f) { return literal(Operand::Kind::ImmF32, fbits(f)); }
  static Operand f64(double d) { return literal(Operand::Kind::ImmF64, dbits(d)); }
  static Operand kind(Operand::Kind k) {
    Operand o;
    o.kind = k;
    return o;
  }
  static Operand sink() { return kind(Operand::Kind::Sink); }
  static Operand none() { return kind(Operand::Kind::None); }
  static Operand vec(std::vector<Operand> elems) {
    Operand o = kind(Operand::Kind::Vector);
    o.elems = std::move(elems);
    return o;
  }
  static Operand special(SpecialReg s, uint8_t comp = 0) {
    Operand o = kind(Operand::Kind::Special);
    o.sreg = s;
    o.comp = comp;
    return o;
  }
  static Operand symbol(uint32_t s, int64_t offset = 0) {
    Operand o = kind(Operand::Kind::Symbol);
    o.symbol = s;
    o.offset = offset;
    return o;
  }
  static Operand symbol_addr(uint32_t s, int64_t offset = 0) {
    Operand o = kind(Operand::Kind::Address);
    o.has_symbol = true;
    o.symbol = s;
    o.offset = offset;
    return o;
  }
  static Operand abs_addr(int64_t a) {
    Operand o = kind(Operand::Kind::Address);
    o.offset = a;
    return o;
  }
  static Operand label(Pc target) {
    Operand o = kind(Operand::Kind::Label);
    o.target = target;
    return o;
  }
  static Operand function(uint32_t f) {
    Operand o = kind(Operand::Kind::Function);
    o.func = f;
    return o;
  }
  static Instruction make(Opcode op, Type t, std::vector<Operand> ops) {
    Instruction in;
    in.op = op;
    in.type = t;
    in.ops = std::move(ops);
    in.text = std::string(opcode_name(op)) + "." + type_name(t) + " ...";
    return in;
  }

  // A register's value in a lane, zero-extended; set() stores it as the
  // register's storage holds it (a narrow register keeps 32 bits, a
  // predicate bit 0).
  uint64_t get(uint32_t reg, unsigned lane) const { return regs().get(reg, lane); }
  void set(uint32_t reg, unsigned lane, uint64_t v) { regs().set(reg, lane, v); }
  WarpRegisters regs() const { return {storage_.data(), layout_.slots.data(), warp_size_}; }
  void set_all(uint32_t reg, uint64_t v) {
    for (unsigned l = 0; l < warp_size_; ++l) set(reg, l, v);
  }
  unsigned warp_size() const { return warp_size_; }

  Outcome run(const Instruction& in, LaneMask active = ~LaneMask(0)) {
    return execute(module, in, regs(), active, env);
  }

  // Evaluates `op` on lane 0 with fresh registers: d (dtype, default t) and
  // one source register per value (stype, default t). `mod` sets modifiers.
  uint64_t eval(Opcode op, Type t, std::vector<uint64_t> srcs,
                const std::function<void(Instruction&)>& mod = {}, Type dtype = Type::None,
                Type stype = Type::None) {
    const uint32_t d = reg(dtype == Type::None ? t : dtype);
    std::vector<Operand> ops{r(d)};
    for (uint64_t v : srcs) {
      const uint32_t s = reg(stype == Type::None ? t : stype);
      set(s, 0, v);
      ops.push_back(r(s));
    }
    Instruction in = make(op, t, ops);
    if (mod) mod(in);
    run(in, 1);
    return get(d, 0);
  }

  Module module;
  FakeEnv env;

 private:
  static Operand literal(Operand::Kind k, uint64_t bits) {
    Operand o = kind(k);
    o.imm = bits;
    return o;
  }
  unsigned warp_size_;
  RegisterLayout layout_;
  RegisterStorage storage_;
};

}  // namespace warptlm::test
