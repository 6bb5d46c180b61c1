#include "frontend/parser_modifiers.h"

namespace warptlm::ptx {

Type type_from_name(const std::string& name) {
  static const struct {
    const char* name;
    Type type;
  } kTypes[] = {
      {"pred", Type::Pred}, {"b8", Type::B8},       {"b16", Type::B16},      {"b32", Type::B32},
      {"b64", Type::B64},   {"u8", Type::U8},       {"u16", Type::U16},      {"u32", Type::U32},
      {"u64", Type::U64},   {"s8", Type::S8},       {"s16", Type::S16},      {"s32", Type::S32},
      {"s64", Type::S64},   {"f16", Type::F16},     {"f32", Type::F32},      {"f64", Type::F64},
      {"bf16", Type::BF16}, {"f16x2", Type::F16x2}, {"bf16x2", Type::BF16x2}};
  for (const auto& t : kTypes)
    if (name == t.name) return t.type;
  return Type::None;
}

bool ModifierList::take(const char* name) {
  for (auto& m : mods_) {
    if (!m.used && m.name == name) {
      m.used = true;
      return true;
    }
  }
  return false;
}

const Modifier* ModifierList::take_any(std::initializer_list<const char*> names) {
  for (auto& m : mods_) {
    if (m.used) continue;
    for (const char* n : names) {
      if (m.name == n) {
        m.used = true;
        return &m;
      }
    }
  }
  return nullptr;
}

std::vector<Modifier*> ModifierList::types() {
  std::vector<Modifier*> out;
  for (auto& m : mods_)
    if (!m.used && type_from_name(m.name) != Type::None) out.push_back(&m);
  return out;
}

Rounding ModifierList::take_rounding(bool integer_ok, SourceLoc* loc) {
  static const struct {
    const char* name;
    Rounding rnd;
    bool integer;
  } kModes[] = {{"rn", Rounding::Rn, false},  {"rz", Rounding::Rz, false},
                {"rm", Rounding::Rm, false},  {"rp", Rounding::Rp, false},
                {"rni", Rounding::Rni, true}, {"rzi", Rounding::Rzi, true},
                {"rmi", Rounding::Rmi, true}, {"rpi", Rounding::Rpi, true}};
  for (auto& m : mods_) {
    if (m.used) continue;
    for (const auto& k : kModes) {
      if (m.name == k.name && (integer_ok || !k.integer)) {
        m.used = true;
        if (loc) *loc = m.loc;
        return k.rnd;
      }
    }
  }
  return Rounding::None;
}

Space ModifierList::take_space(SourceLoc* loc) {
  static const struct {
    const char* name;
    Space space;
  } kSpaces[] = {{"global", Space::Global},      {"shared", Space::Shared},
                 {"shared::cta", Space::Shared}, {"local", Space::Local},
                 {"param", Space::Param},        {"const", Space::Const}};
  for (auto& m : mods_) {
    if (m.used) continue;
    for (const auto& k : kSpaces) {
      if (m.name == k.name) {
        m.used = true;
        if (loc) *loc = m.loc;
        return k.space;
      }
    }
  }
  return Space::Generic;
}

const Modifier* ModifierList::first_unused() const {
  for (const auto& m : mods_)
    if (!m.used) return &m;
  return nullptr;
}

}  // namespace warptlm::ptx
