// The pre-decoded loads and stores against execute(): the same random
// registers, memory, lane masks and guards, with some lanes' addresses
// misaligned or out of bounds, must give the same registers, the same memory,
// the same environment accesses in the same order, the same variable lookups
// and the same fault (lane, address, message).
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "harness.h"
#include "memory/address_map.h"
#include "semantics/predecoded.h"
#include "semantics/register_file.h"

namespace warptlm {
namespace {

using test::FakeEnv;
using test::Harness;

class PredecodedMemoryTest : public ::testing::TestWithParam<unsigned> {
 protected:
  enum : uint32_t { U32d, S32d, F32d, U64d, S64d, F64d, B64d, U16d, A64, A32, Pq, kRegs };

  void SetUp() override {
    const Type types[kRegs] = {Type::U32, Type::S32, Type::F32, Type::U64, Type::S64, Type::F64,
                               Type::B64, Type::U16, Type::U64, Type::U32, Type::Pred};
    module_.functions.resize(1);
    for (uint32_t i = 0; i < kRegs; ++i)
      module_.functions[0].regs.push_back({"%r" + std::to_string(i), types[i]});
    layout_ = RegisterLayout(module_.functions[0].regs, ws());
  }
  unsigned ws() const { return GetParam(); }

  Operand r(uint32_t reg) const {
    Operand o;
    o.kind = Operand::Kind::Reg;
    o.reg = reg;
    o.reg_type = module_.functions[0].regs[reg].type;
    return o;
  }
  Operand addr(uint32_t reg, int64_t offset) const {
    Operand o = r(reg);
    o.kind = Operand::Kind::Address;
    o.has_reg = true;
    o.offset = offset;
    return o;
  }
  static Instruction make(Opcode op, Type t, Space s, std::vector<Operand> ops) {
    Instruction in = Harness::make(op, t, std::move(ops));
    in.space = s;
    in.text = std::string(opcode_name(op)) + "." + space_name(s) + "." + type_name(t) + " ...";
    return in;
  }

  // A lane's address register value: usually an aligned in-bounds address
  // of `space` (with the offset the instruction adds), sometimes misaligned,
  // sometimes out of bounds.
  // (Bad with probability 2 / `choices`.)
  uint64_t address(Space space, unsigned size, int64_t offset, unsigned choices = 40) {
    const unsigned k = rng_() % choices;
    uint64_t a = (rng_() % (FakeEnv::kMemBytes / size)) * size;  // in bounds
    if (k == 0) a += 1 + rng_() % (size - 1);                    // misaligned
    if (k == 1) a = FakeEnv::kMemBytes + (rng_() % 64) * size;   // past the end
    if (space == Space::Generic) a += address_map::window_base(Space::Shared);
    return a - static_cast<uint64_t>(offset);
  }
  void randomise(RegisterStorage& s, Space space, unsigned size, int64_t offset) {
    s.reset(layout_.bytes);
    const WarpRegisters regs{s.data(), layout_.slots.data(), ws()};
    for (uint32_t reg = 0; reg < kRegs; ++reg) {
      const Type t = module_.functions[0].regs[reg].type;
      if (t == Type::Pred) {
        *regs.pred(reg) = rng_();
        continue;
      }
      for (unsigned l = 0; l < ws(); ++l) {
        uint64_t v = rng_();
        if (reg == A64 || reg == A32) v = address(space, size, offset);
        regs.set(reg, l, v & full_mask(type_bits(t)));
      }
    }
  }
  void fill(FakeEnv& env) {
    for (auto& [space, bytes] : env.mem)
      for (auto& b : bytes) b = static_cast<uint8_t>(rng_());
  }

  struct Result {
    bool faulted = false;
    std::string what;
    unsigned lane = 0;
    uint64_t address = 0;
    MemoryFault::Reason reason = MemoryFault::Reason::OutOfBounds;
  };
  template <class F>
  static Result run(F&& f) {
    Result r;
    try {
      f();
    } catch (const MemoryFault& e) {
      r = Result{true, e.what(), e.lane, e.address, e.reason};
    }
    return r;
  }

  // Runs `in` (its address register `base`, `offset`) both ways; expects a
  // memory handler and identical effects.
  void same_as_execute(Instruction in, int trials = 200) {
    const Operand& a = in.ops[in.op == Opcode::Ld ? 1 : 0];
    const unsigned size = type_bits(in.type) / 8;
    int faults = 0;
    for (int trial = 0; trial < trials; ++trial) {
      Instruction guarded = in;
      const int g = trial % 3;  // no guard, @p, @!p
      guarded.has_guard = g != 0;
      guarded.guard_negated = g == 2;
      guarded.guard_reg = Pq;
      const PredecodedInstruction p = predecode(guarded, layout_.slots.data());
      ASSERT_TRUE(p.run && p.memory) << "no memory handler for this form";
      RegisterStorage ra, rb;
      randomise(ra, in.space, size, a.offset);
      rb.reset(layout_.bytes);
      std::memcpy(rb.data(), ra.data(), layout_.bytes);
      FakeEnv ea, eb;
      fill(ea);
      eb.mem = ea.mem;
      // A variable's address ([var + offset]): one for every lane, so bad
      // more often than a lane's.
      ea.symbols = eb.symbols = {address(in.space, size, a.offset, 8)};
      const LaneMask active = trial % 2 ? full_mask(ws()) : rng_();
      Outcome want, got;
      const Result rw = run([&] {
        want = execute(module_, guarded, WarpRegisters{ra.data(), layout_.slots.data(), ws()},
                       active, ea);
      });
      const Result rg =
          run([&] { ASSERT_TRUE(run_predecoded(p, rb.data(), active, ws(), eb, got)); });
      faults += rw.faulted;
      ASSERT_EQ(rg.faulted, rw.faulted) << "trial " << trial << ": " << rw.what << rg.what;
      if (rw.faulted) {
        EXPECT_EQ(rg.what, rw.what) << "trial " << trial;
        EXPECT_EQ(rg.lane, rw.lane) << "trial " << trial;
        EXPECT_EQ(rg.address, rw.address) << "trial " << trial;
        EXPECT_EQ(rg.reason, rw.reason) << "trial " << trial;
      } else {
        EXPECT_EQ(got.control, want.control) << "trial " << trial;
        EXPECT_EQ(got.executed, want.executed) << "trial " << trial;
      }
      ASSERT_EQ(std::memcmp(ra.data(), rb.data(), layout_.bytes), 0)
          << "registers differ after trial " << trial;
      ASSERT_TRUE(ea.mem == eb.mem) << "memory differs after trial " << trial;
      EXPECT_EQ(ea.symbol_lookups, eb.symbol_lookups) << "trial " << trial;
      ASSERT_EQ(ea.log.size(), eb.log.size()) << "trial " << trial;
      for (size_t i = 0; i < ea.log.size(); ++i) {
        const FakeEnv::Access &x = ea.log[i], &y = eb.log[i];
        ASSERT_TRUE(x.store == y.store && x.space == y.space && x.lane == y.lane &&
                    x.addr == y.addr && x.size == y.size)
            << "access " << i << " of trial " << trial;
      }
    }
    // The trials reach the fault paths: a misaligned lane or one out of bounds
    // in some of them (each lane's address is bad with probability 1/20).
    EXPECT_GT(faults, 2);
  }
  void no_handler(const Instruction& in) {
    EXPECT_FALSE(predecode(in, layout_.slots.data()).run) << in.text;
  }

  Module module_;
  RegisterLayout layout_;
  std::mt19937_64 rng_{2024};
};

TEST_P(PredecodedMemoryTest, LoadsMatchExecute) {
  for (Space s : {Space::Global, Space::Shared, Space::Generic}) {
    SCOPED_TRACE(space_name(s));
    same_as_execute(make(Opcode::Ld, Type::U32, s, {r(U32d), addr(A64, 0)}));
    same_as_execute(make(Opcode::Ld, Type::S32, s, {r(S32d), addr(A64, 12)}));
    same_as_execute(make(Opcode::Ld, Type::F32, s, {r(F32d), addr(A64, -8)}));
    same_as_execute(make(Opcode::Ld, Type::U64, s, {r(U64d), addr(A64, 16)}));
    same_as_execute(make(Opcode::Ld, Type::F64, s, {r(F64d), addr(A64, 0)}));
    same_as_execute(make(Opcode::Ld, Type::B64, s, {r(A64), addr(A64, 8)}));  // d is the base
  }
  // A 32-bit base register: 32-bit address arithmetic.
  same_as_execute(make(Opcode::Ld, Type::U32, Space::Shared, {r(U32d), addr(A32, -4)}));
  same_as_execute(make(Opcode::Ld, Type::S64, Space::Global, {r(S64d), addr(A32, 24)}));
  same_as_execute(make(Opcode::Ld, Type::U32, Space::Local, {r(A32), addr(A32, 4)}));
  // A variable's address: a kernel parameter, a shared or global variable.
  for (Space s : {Space::Param, Space::Shared, Space::Global}) {
    SCOPED_TRACE(space_name(s));
    same_as_execute(make(Opcode::Ld, Type::U32, s, {r(U32d), Harness::symbol_addr(0)}));
    same_as_execute(make(Opcode::Ld, Type::U64, s, {r(A64), Harness::symbol_addr(0, 8)}));
    same_as_execute(make(Opcode::Ld, Type::F32, s, {r(F32d), Harness::symbol_addr(0, -4)}));
  }
}

TEST_P(PredecodedMemoryTest, StoresMatchExecute) {
  for (Space s : {Space::Global, Space::Shared, Space::Generic}) {
    SCOPED_TRACE(space_name(s));
    same_as_execute(make(Opcode::St, Type::U32, s, {addr(A64, 0), r(U32d)}));
    same_as_execute(make(Opcode::St, Type::F32, s, {addr(A64, 20), r(F32d)}));
    same_as_execute(make(Opcode::St, Type::S64, s, {addr(A64, -16), r(S64d)}));
    same_as_execute(make(Opcode::St, Type::B64, s, {addr(A64, 0), r(A64)}));  // stores its address
  }
  same_as_execute(make(Opcode::St, Type::B32, Space::Shared, {addr(A32, 8), r(S32d)}));
  same_as_execute(make(Opcode::St, Type::F64, Space::Global, {addr(A32, 0), r(F64d)}));
  for (Space s : {Space::Param, Space::Shared}) {
    same_as_execute(make(Opcode::St, Type::U32, s, {Harness::symbol_addr(0), r(U32d)}));
    same_as_execute(make(Opcode::St, Type::S64, s, {Harness::symbol_addr(0, 16), r(S64d)}));
  }
}

TEST_P(PredecodedMemoryTest, OtherFormsStayWithExecute) {
  const Space g = Space::Global;
  Instruction v2 = make(Opcode::Ld, Type::U32, g, {Harness::vec({r(U32d), r(S32d)}), addr(A64, 0)});
  v2.vec = 2;
  no_handler(v2);
  no_handler(make(Opcode::Ld, Type::U16, g, {r(U16d), addr(A64, 0)}));  // 2-byte element
  no_handler(make(Opcode::Ld, Type::U32, g, {r(U64d), addr(A64, 0)}));  // wider destination
  no_handler(make(Opcode::Ld, Type::U64, g, {r(U32d), addr(A64, 0)}));  // narrower destination
  no_handler(make(Opcode::Ld, Type::U32, g, {r(U32d), Harness::abs_addr(64)}));
  no_handler(make(Opcode::St, Type::U32, g, {addr(A64, 0), Harness::imm(7)}));  // a literal
  no_handler(make(Opcode::St, Type::U32, g, {addr(A64, 0), r(U64d)}));          // truncates
  no_handler(make(Opcode::St, Type::U32, g, {addr(A64, 0), Harness::sink()}));  // `_`
  no_handler(make(Opcode::Atom, Type::U32, g, {r(U32d), addr(A64, 0), r(S32d)}));
  Instruction pred_base = make(Opcode::Ld, Type::U32, g, {r(U32d), addr(Pq, 0)});
  no_handler(pred_base);
}

INSTANTIATE_TEST_SUITE_P(WarpSizes, PredecodedMemoryTest, ::testing::Values(32u, 4u, 64u),
                         [](const auto& info) { return "warp" + std::to_string(info.param); });

}  // namespace
}  // namespace warptlm
