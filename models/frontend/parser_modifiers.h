// The dotted suffixes of an opcode (`ld.global.v4.f32` -> global, v4, f32).
// Decoders take the modifiers they understand; whatever is left over is an
// error, so an unsupported modifier can never be silently ignored.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "frontend/ir.h"

namespace warptlm::ptx {

// A set of IR types as a bit mask, for "which types does this opcode take".
using TypeSet = uint32_t;
constexpr TypeSet type_bit(Type t) { return TypeSet(1) << static_cast<unsigned>(t); }
constexpr TypeSet type_set(std::initializer_list<Type> types) {
  TypeSet s = 0;
  for (Type t : types) s |= type_bit(t);
  return s;
}
constexpr bool in_set(TypeSet s, Type t) { return (s & type_bit(t)) != 0; }

constexpr TypeSet kBits16to64 = type_set({Type::B16, Type::B32, Type::B64});
constexpr TypeSet kUnsigned16to64 = type_set({Type::U16, Type::U32, Type::U64});
constexpr TypeSet kSigned16to64 = type_set({Type::S16, Type::S32, Type::S64});
constexpr TypeSet kInt16to64 = kUnsigned16to64 | kSigned16to64;
constexpr TypeSet kFloat = type_set({Type::F32, Type::F64});
// The types of the half-precision instructions (docs/half-precision.md).
constexpr TypeSet kHalf = type_set({Type::F16, Type::BF16, Type::F16x2, Type::BF16x2});
constexpr TypeSet kMemTypes =
    type_set({Type::B8, Type::B16, Type::B32, Type::B64, Type::U8, Type::U16, Type::U32, Type::U64,
              Type::S8, Type::S16, Type::S32, Type::S64, Type::F32, Type::F64});

// "u32" -> Type::U32, "pred" -> Type::Pred; Type::None for a non-type name.
Type type_from_name(const std::string& name);

struct Modifier {
  std::string name;  // without the leading dot
  SourceLoc loc;
  bool used = false;
};

class ModifierList {
 public:
  void add(std::string name, SourceLoc loc) { mods_.push_back({std::move(name), loc, false}); }

  // Marks the first unused occurrence of `name` as used; false if absent.
  bool take(const char* name);
  // The first unused modifier among `names`, marked used; nullptr if none.
  const Modifier* take_any(std::initializer_list<const char*> names);
  // Unused type suffixes, in source order (not marked used).
  std::vector<Modifier*> types();
  // .rn/.rz/.rm/.rp (and .rni/.rzi/.rmi/.rpi when `integer_ok`), marked used.
  Rounding take_rounding(bool integer_ok, SourceLoc* loc = nullptr);
  // .global/.shared(::cta)/.local/.param/.const, marked used; Generic if none.
  Space take_space(SourceLoc* loc = nullptr);
  // The first modifier nobody took, or nullptr.
  const Modifier* first_unused() const;
  bool empty() const { return mods_.empty(); }

 private:
  std::vector<Modifier> mods_;
};

}  // namespace warptlm::ptx
