// Variable initialisers: `= 5`, `= {1, 2, 3}`, `= {{1, 2}, {3, 4}}`, stored
// as little-endian bytes of the element type in Symbol::init.
#include <cstring>
#include <limits>

#include "frontend/parser_context.h"

namespace warptlm::ptx {

namespace {

constexpr uint64_t kUnbounded = std::numeric_limits<uint64_t>::max();

uint64_t product_from(const std::vector<uint64_t>& extents, size_t level) {
  uint64_t p = 1;
  for (size_t i = level; i < extents.size(); ++i) p *= extents[i];
  return p;
}

// Converts a literal token (already negated if `negative`) to the bytes of
// `type`; returns false when the literal kind cannot initialise that type.
bool encode(Type type, const Token& t, bool negative, uint64_t* out, std::string* why) {
  if (type == Type::F32 || type == Type::F64) {
    double v;
    if (t.num == NumKind::Int) {
      v = static_cast<double>(t.bits);
    } else if (t.num == NumKind::F32) {
      uint32_t b = static_cast<uint32_t>(t.bits);
      float f;
      std::memcpy(&f, &b, sizeof f);
      v = f;
    } else {
      std::memcpy(&v, &t.bits, sizeof v);
    }
    if (negative) v = -v;
    if (type == Type::F64) {
      std::memcpy(out, &v, sizeof v);
    } else {
      float f = static_cast<float>(v);
      uint32_t b;
      std::memcpy(&b, &f, sizeof b);
      *out = b;
    }
    return true;
  }
  if (is_half(type)) {
    *why = "." + std::string(type_name(type)) + " initialisers are not supported";
    return false;
  }
  if (t.num != NumKind::Int) {
    *why = "a floating-point literal cannot initialise ." + std::string(type_name(type));
    return false;
  }
  unsigned bits = type_bits(type);
  uint64_t v = t.bits;
  if (negative) {
    if (v > (uint64_t(1) << 63)) {
      *why = "literal out of range";
      return false;
    }
    v = ~v + 1;
  }
  if (bits < 64) {
    // Accept anything that fits the width as either a signed or an unsigned value.
    uint64_t limit = uint64_t(1) << bits;
    bool fits = negative ? (t.bits <= limit / 2) : (v < limit);
    if (!fits) {
      *why = "value does not fit in ." + std::string(type_name(type));
      return false;
    }
    v &= limit - 1;
  }
  *out = v;
  return true;
}

}  // namespace

void Parser::parse_initializer(Symbol& s, const std::vector<uint64_t>& dims, unsigned vec,
                               bool unsized_first) {
  expect_punct('=', "before initialiser");
  std::vector<uint64_t> extents = dims;
  if (vec > 1) extents.push_back(vec);
  if (unsized_first) extents[0] = kUnbounded;
  uint64_t elem_size = type_bits(s.type) / 8;
  uint64_t used = 0;  // elements written, one past the highest index
  if (peek().is_punct('{')) {
    if (extents.empty()) fail(peek(), "a scalar variable takes a single value, not a braced list");
    parse_init_list(s, extents, 0, 0, &used);
  } else {
    if (!extents.empty()) fail(peek(), "an array initialiser must be enclosed in { }");
    store_init_value(s, 0);
    used = 1;
  }
  if (unsized_first) {
    uint64_t row = product_from(extents, 1);
    uint64_t rows = (used + row - 1) / row;
    if (rows == 0) fail(s.loc, "array '" + s.name + "' needs a size or a non-empty initialiser");
    s.size = rows * row * elem_size;
  }
  s.init.resize(s.size, 0);
}

void Parser::parse_init_list(Symbol& s, const std::vector<uint64_t>& extents, size_t level,
                             uint64_t first_elem, uint64_t* used) {
  expect_punct('{', "to open an initialiser list");
  uint64_t stride = product_from(extents, level + 1);
  bool can_nest = level + 1 < extents.size();
  // A list holds either one braced sub-list per row or flat values filling
  // its rows in order; mixing both is ambiguous and rejected.
  int style = 0;  // 0 = undecided, 1 = sub-lists, 2 = flat values
  uint64_t capacity = extents[level] == kUnbounded ? kUnbounded : extents[level] * stride;
  uint64_t n = 0;
  if (!peek().is_punct('}')) {
    do {
      const Token& item = peek();
      if (item.is_punct('{')) {
        if (!can_nest) fail(item, "too many levels of braces in initialiser of '" + s.name + "'");
        if (style == 2) fail(item, "initialiser of '" + s.name + "' mixes values and { } lists");
        style = 1;
        if (extents[level] != kUnbounded && n >= extents[level])
          fail(item, "too many initialisers for '" + s.name + "'");
        parse_init_list(s, extents, level + 1, first_elem + n * stride, used);
      } else {
        if (style == 1) fail(item, "initialiser of '" + s.name + "' mixes values and { } lists");
        style = 2;
        if (capacity != kUnbounded && n >= capacity)
          fail(item, "too many initialisers for '" + s.name + "'");
        store_init_value(s, first_elem + n);
        if (first_elem + n + 1 > *used) *used = first_elem + n + 1;
      }
      ++n;
    } while (accept_punct(','));
  }
  if (!peek().is_punct('}'))
    fail(peek(), "expected ',' or '}' in initialiser, found " + describe(peek()));
  next();
  if (style == 1 && first_elem + n * stride > *used) *used = first_elem + n * stride;
}

void Parser::store_init_value(Symbol& s, uint64_t elem) {
  const Token& start = peek();
  bool negative = accept_punct('-');
  const Token& t = peek();
  if (t.kind == TokKind::Ident) {
    if (header_index_.count(t.text) == 0)
      fail(t, "address initialisers of variables ('" + t.text +
                  "') are not supported; a function's name is");
    // A function pointer: the function's address, filled in at the end.
    if (negative) fail(start, "a function's address cannot be negated");
    if (type_bits(s.type) != 64 || is_float(s.type))
      fail(t, "'" + s.name + "' holds the address of function '" + t.text +
                  "': its elements must be .u64, .s64 or .b64");
    next();
    const uint64_t at = elem * 8;
    if (s.init.size() < at + 8) s.init.resize(at + 8, 0);
    // add_symbol() gives the variable the next index once its initialiser is read.
    function_refs_.push_back({true, module_.symbols.size(), at, t.text, loc_of(t)});
    return;
  }
  if (t.kind != TokKind::Number) fail(t, "expected a literal in initialiser, found " + describe(t));
  next();
  uint64_t value = 0;
  std::string why;
  if (!encode(s.type, t, negative, &value, &why))
    fail(start, "bad initialiser for '" + s.name + "': " + why);
  uint64_t size = type_bits(s.type) / 8;
  uint64_t at = elem * size;
  if (s.init.size() < at + size) s.init.resize(at + size, 0);
  for (uint64_t i = 0; i < size; ++i) s.init[at + i] = static_cast<uint8_t>(value >> (8 * i));
}

}  // namespace warptlm::ptx
