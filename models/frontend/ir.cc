#include "frontend/ir.h"

#include <algorithm>

namespace warptlm {

const char* type_name(Type t) {
  static const char* const names[] = {"none", "pred", "b8",  "b16", "b32",   "b64",   "u8",
                                      "u16",  "u32",  "u64", "s8",  "s16",   "s32",   "s64",
                                      "f16",  "bf16", "f32", "f64", "f16x2", "bf16x2"};
  static_assert(sizeof names / sizeof names[0] == static_cast<unsigned>(Type::BF16x2) + 1,
                "one name per type");
  return names[static_cast<unsigned>(t)];
}

const char* space_name(Space s) {
  static const char* const names[] = {"generic", "global", "shared", "local", "param", "const"};
  return names[static_cast<unsigned>(s)];
}

const char* special_name(SpecialReg s) {
  static const char* const names[] = {"%tid",
                                      "%ntid",
                                      "%ctaid",
                                      "%nctaid",
                                      "%laneid",
                                      "%warpid",
                                      "%nwarpid",
                                      "%smid",
                                      "%nsmid",
                                      "%gridid",
                                      "%clock",
                                      "%clock64",
                                      "%lanemask_eq",
                                      "%lanemask_le",
                                      "%lanemask_lt",
                                      "%lanemask_ge",
                                      "%lanemask_gt",
                                      "%dynamic_smem_size",
                                      "%total_smem_size",
                                      "%globaltimer",
                                      "%globaltimer_lo",
                                      "%globaltimer_hi",
                                      "WARP_SZ",
                                      "%envreg"};
  return names[static_cast<unsigned>(s)];
}

const char* opcode_name(Opcode op) {
  static const char* const names[] = {"mov",
                                      "add",
                                      "sub",
                                      "mul",
                                      "mad",
                                      "mul24",
                                      "mad24",
                                      "div",
                                      "rem",
                                      "abs",
                                      "neg",
                                      "min",
                                      "max",
                                      "and",
                                      "or",
                                      "xor",
                                      "not",
                                      "cnot",
                                      "shl",
                                      "shr",
                                      "bfe",
                                      "bfi",
                                      "popc",
                                      "clz",
                                      "brev",
                                      "prmt",
                                      "setp",
                                      "selp",
                                      "set",
                                      "slct",
                                      "cvt",
                                      "cvta",
                                      "fma",
                                      "rcp",
                                      "sqrt",
                                      "rsqrt",
                                      "ex2",
                                      "lg2",
                                      "sin",
                                      "cos",
                                      "copysign",
                                      "tanh",
                                      "testp",
                                      "ld",
                                      "st",
                                      "atom",
                                      "red",
                                      "bar",
                                      "membar",
                                      "bra",
                                      "call",
                                      "ret",
                                      "exit",
                                      "vote",
                                      "shfl",
                                      "activemask",
                                      "shf",
                                      "bfind",
                                      "lop3",
                                      "bmsk",
                                      "redux",
                                      "trap",
                                      "match",
                                      "elect",
                                      "nanosleep",
                                      "tex",
                                      "tld4",
                                      "txq",
                                      "suld",
                                      "sust",
                                      "suq",
                                      "wmma.load",
                                      "wmma.store",
                                      "wmma.mma",
                                      "mma",
                                      "ldmatrix",
                                      "cp.async",
                                      "cp.async.commit_group",
                                      "cp.async.wait_group",
                                      "mbarrier",
                                      "reconverge",
                                      "emask.defer",
                                      "emask.branchz",
                                      "emask.join"};
  static_assert(sizeof(names) / sizeof(names[0]) == static_cast<unsigned>(Opcode::Count_),
                "opcode names out of sync");
  return names[static_cast<unsigned>(op)];
}

size_t destination_count(const Instruction& in) {
  size_t n = 1;
  switch (in.op) {
    // Memory writes, control and synchronisation write no register. call's
    // return values travel through .param variables, never registers.
    case Opcode::Bar:  // bar.red writes its result
      n = in.barrier_red != BarrierRed::None ? 1 : 0;
      break;
    case Opcode::St:
    case Opcode::Red:
    case Opcode::Sust:
    case Opcode::WmmaStore:
    case Opcode::CpAsync:
    case Opcode::CpAsyncCommit:
    case Opcode::CpAsyncWait:
    case Opcode::Nanosleep:
    case Opcode::Membar:
    case Opcode::Bra:
    case Opcode::Call:
    case Opcode::Ret:
    case Opcode::Exit:
    case Opcode::Trap:
    case Opcode::Reconverge:
    case Opcode::EmaskDefer:
    case Opcode::EmaskBranchz:
    case Opcode::EmaskJoin:
      n = 0;
      break;
    case Opcode::Mbarrier:  // init, inval and cp.async's arrive write nothing
      n = in.mbarrier == MbarrierOp::Init || in.mbarrier == MbarrierOp::Inval ||
                  in.mbarrier == MbarrierOp::CpAsyncArrive
              ? 0
              : 1;
      break;
    // p|q and d|p: the second is Kind::None when absent.
    case Opcode::Setp:
    case Opcode::Shfl:
    case Opcode::Match:
    case Opcode::Elect:
    case Opcode::Tex:
    case Opcode::Tld4:
      n = 2;
      break;
    default:
      // d, CF-out of the carry forms (ir.h).
      if (in.carry_in || in.carry_out) n = 2;
  }
  return std::min(n, in.ops.size());
}

const Function* Module::find_function(const std::string& name) const {
  for (const auto& f : functions)
    if (f.name == name) return &f;
  return nullptr;
}

}  // namespace warptlm
