#include "frontend/ir.h"

namespace warptlm {

const char* type_name(Type t) {
  static const char* const names[] = {"none", "pred", "b8",  "b16", "b32", "b64",
                                      "u8",   "u16",  "u32", "u64", "s8",  "s16",
                                      "s32",  "s64",  "f16", "f32", "f64"};
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
                                      "WARP_SZ"};
  return names[static_cast<unsigned>(s)];
}

const char* opcode_name(Opcode op) {
  static const char* const names[] = {
      "mov",       "add",        "sub",         "mul",           "mad",       "mul24",      "mad24",
      "div",       "rem",        "abs",         "neg",           "min",       "max",        "and",
      "or",        "xor",        "not",         "cnot",          "shl",       "shr",        "bfe",
      "bfi",       "popc",       "clz",         "brev",          "prmt",      "setp",       "selp",
      "set",       "slct",       "cvt",         "cvta",          "fma",       "rcp",        "sqrt",
      "rsqrt",     "ex2",        "lg2",         "sin",           "cos",       "copysign",   "testp",
      "ld",        "st",         "atom",        "red",           "bar",       "membar",     "bra",
      "call",      "ret",        "exit",        "vote",          "shfl",      "activemask", "shf",
      "bfind",     "lop3",       "bmsk",        "redux",         "trap",      "match",      "elect",
      "nanosleep", "reconverge", "emask.defer", "emask.branchz", "emask.join"};
  static_assert(sizeof(names) / sizeof(names[0]) == static_cast<unsigned>(Opcode::Count_),
                "opcode names out of sync");
  return names[static_cast<unsigned>(op)];
}

const Function* Module::find_function(const std::string& name) const {
  for (const auto& f : functions)
    if (f.name == name) return &f;
  return nullptr;
}

}  // namespace warptlm
