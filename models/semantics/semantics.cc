// execute(): guard evaluation and dispatch to the instruction families.
#include "semantics/semantics.h"

#include "semantics/families.h"

namespace warptlm {

namespace {

// Lanes of `active` whose guard predicate holds (@p / @!p).
LaneMask guard_mask(const Instruction& inst, const WarpRegisters& regs, LaneMask active) {
  active &= full_mask(regs.warp_size);
  if (!inst.has_guard) return active;
  if (regs.slots[inst.guard_reg].kind == RegKind::Pred)  // the parser's guards: one load
    return (*regs.pred(inst.guard_reg) ^ (inst.guard_negated ? ~LaneMask(0) : 0)) & active;
  const uint64_t flip = inst.guard_negated ? 1 : 0;
  LaneMask m = 0;
  for (unsigned lane = 0; lane < regs.warp_size; ++lane)
    m |= ((regs.get(inst.guard_reg, lane) & 1) ^ flip) << lane;
  return m & active;
}

}  // namespace

void WarpEnvironment::special_lanes(SpecialReg sreg, unsigned comp, LaneMask lanes, uint64_t* out) {
  sem::for_lanes(lanes, [&](unsigned lane) { out[lane] = special(sreg, comp, lane); });
}

void WarpEnvironment::load_lanes(Space space, LaneMask lanes, const uint64_t* addrs, uint8_t* data,
                                 unsigned size) {
  sem::for_lanes(lanes, [&](unsigned lane) {
    load(space, lane, addrs[lane], data + size_t(lane) * size, size);
  });
}

void WarpEnvironment::store_lanes(Space space, LaneMask lanes, const uint64_t* addrs,
                                  const uint8_t* data, unsigned size) {
  sem::for_lanes(lanes, [&](unsigned lane) {
    store(space, lane, addrs[lane], data + size_t(lane) * size, size);
  });
}

void WarpEnvironment::update_lanes(Space space, LaneMask lanes, const uint64_t* addrs,
                                   unsigned size, LaneUpdate update, void* ctx) {
  uint8_t bytes[8];
  sem::for_lanes(lanes, [&](unsigned lane) {
    load(space, lane, addrs[lane], bytes, size);
    update(ctx, lane, bytes);
    store(space, lane, addrs[lane], bytes, size);
  });
}

bool reports_control(Opcode op) {
  switch (op) {
    case Opcode::Bar:
    case Opcode::Membar:
    case Opcode::Nanosleep:
    case Opcode::Bra:
    case Opcode::Call:
    case Opcode::Ret:
    case Opcode::Exit:
    case Opcode::Trap:
    case Opcode::Reconverge:
    case Opcode::EmaskDefer:
    case Opcode::EmaskBranchz:
    case Opcode::EmaskJoin:
      return true;  // exec_control() runs them
    default:
      return false;
  }
}

Outcome execute(const Module& module, const Instruction& inst, const WarpRegisters& regs,
                LaneMask active, WarpEnvironment& env) {
  const sem::Exec x{module, inst, regs, env, guard_mask(inst, regs, active)};
  if (reports_control(inst.op)) return sem::exec_control(x);
  switch (inst.op) {
    case Opcode::Mov:
      sem::exec_move(x);
      break;
    case Opcode::Add:
    case Opcode::Sub:
    case Opcode::Mul:
    case Opcode::Mad:
    case Opcode::Div:
    case Opcode::Abs:
    case Opcode::Neg:
    case Opcode::Min:
    case Opcode::Max:
      if (inst.carry_in || inst.carry_out)
        sem::exec_carry_arith(x);
      else if (is_float(inst.type) || is_packed_half(inst.type))
        sem::exec_float_arith(x);
      else
        sem::exec_int_arith(x);
      break;
    case Opcode::Mul24:
    case Opcode::Mad24:
    case Opcode::Rem:
      sem::exec_int_arith(x);
      break;
    case Opcode::Fma:
    case Opcode::Rcp:
    case Opcode::Sqrt:
    case Opcode::Rsqrt:
    case Opcode::Ex2:
    case Opcode::Lg2:
    case Opcode::Sin:
    case Opcode::Cos:
    case Opcode::Tanh:
    case Opcode::Copysign:
      sem::exec_float_arith(x);
      break;
    case Opcode::And:
    case Opcode::Or:
    case Opcode::Xor:
    case Opcode::Not:
    case Opcode::Cnot:
    case Opcode::Shl:
    case Opcode::Shr:
    case Opcode::Bfe:
    case Opcode::Bfi:
    case Opcode::Popc:
    case Opcode::Clz:
    case Opcode::Brev:
    case Opcode::Prmt:
    case Opcode::Shf:
    case Opcode::Bfind:
    case Opcode::Lop3:
    case Opcode::Bmsk:
      sem::exec_bits(x);
      break;
    case Opcode::Setp:
    case Opcode::Set:
    case Opcode::Selp:
    case Opcode::Slct:
    case Opcode::Testp:
      sem::exec_compare_select(x);
      break;
    case Opcode::Cvt:
    case Opcode::Cvta:
      sem::exec_convert(x);
      break;
    case Opcode::Ld:
    case Opcode::St:
    case Opcode::Atom:
    case Opcode::Red:
      sem::exec_memory(x);
      break;
    case Opcode::Vote:
    case Opcode::Shfl:
    case Opcode::Activemask:
    case Opcode::Redux:
    case Opcode::Match:
    case Opcode::Elect:
      sem::exec_warp(x);
      break;
    case Opcode::Tex:
    case Opcode::Tld4:
    case Opcode::Txq:
    case Opcode::Suld:
    case Opcode::Sust:
    case Opcode::Suq:
      sem::exec_texture(x);
      break;
    case Opcode::WmmaLoad:
    case Opcode::WmmaStore:
    case Opcode::WmmaMma:
    case Opcode::Mma:
    case Opcode::Ldmatrix:
      sem::exec_tensor(x);
      break;
    case Opcode::CpAsync:
    case Opcode::CpAsyncCommit:
    case Opcode::CpAsyncWait:
    case Opcode::Mbarrier:
      sem::exec_async(x);
      break;
    default:  // Count_ (the control opcodes went to exec_control above)
      x.unsupported("not an opcode");
  }
  Outcome out;
  out.executed = x.executed;
  return out;
}

}  // namespace warptlm
