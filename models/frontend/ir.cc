#include "frontend/ir.h"

namespace warptlm {

unsigned type_bits(Type t) {
  switch (t) {
    case Type::None:
      return 0;
    case Type::Pred:
      return 1;
    case Type::B8:
    case Type::U8:
    case Type::S8:
      return 8;
    case Type::B16:
    case Type::U16:
    case Type::S16:
    case Type::F16:
      return 16;
    case Type::B32:
    case Type::U32:
    case Type::S32:
    case Type::F32:
      return 32;
    case Type::B64:
    case Type::U64:
    case Type::S64:
    case Type::F64:
      return 64;
  }
  return 0;
}

bool is_signed(Type t) {
  return t == Type::S8 || t == Type::S16 || t == Type::S32 || t == Type::S64;
}
bool is_float(Type t) { return t == Type::F16 || t == Type::F32 || t == Type::F64; }
bool is_bits(Type t) { return t == Type::B8 || t == Type::B16 || t == Type::B32 || t == Type::B64; }

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
                                      "%total_smem_size"};
  return names[static_cast<unsigned>(s)];
}

const char* opcode_name(Opcode op) {
  static const char* const names[] = {
      "mov",        "add", "sub",    "mul",  "mad",      "mul24", "mad24", "div",       "rem",
      "abs",        "neg", "min",    "max",  "and",      "or",    "xor",   "not",       "cnot",
      "shl",        "shr", "bfe",    "bfi",  "popc",     "clz",   "brev",  "prmt",      "setp",
      "selp",       "set", "slct",   "cvt",  "cvta",     "fma",   "rcp",   "sqrt",      "rsqrt",
      "ex2",        "lg2", "sin",    "cos",  "copysign", "testp", "ld",    "st",        "atom",
      "red",        "bar", "membar", "bra",  "call",     "ret",   "exit",  "vote",      "shfl",
      "activemask", "shf", "bfind",  "lop3", "bmsk",     "redux", "trap",  "reconverge"};
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
