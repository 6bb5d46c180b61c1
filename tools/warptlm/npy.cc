#include "npy.h"

#include <cstring>
#include <fstream>
#include <iterator>
#include <regex>
#include <stdexcept>

namespace warptlm::cli {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& why) {
  throw std::runtime_error(path + ": not a usable .npy file: " + why);
}

Type element_type(const std::string& path, const std::string& descr) {
  static const struct {
    const char* descr;
    Type type;
  } known[] = {{"|b1", Type::U8},  {"|i1", Type::S8},  {"|u1", Type::U8},  {"<i2", Type::S16},
               {"<u2", Type::U16}, {"<i4", Type::S32}, {"<u4", Type::U32}, {"<i8", Type::S64},
               {"<u8", Type::U64}, {"<f2", Type::F16}, {"<f4", Type::F32}, {"<f8", Type::F64}};
  for (const auto& k : known)
    if (descr == k.descr) return k.type;
  fail(path, "unsupported dtype '" + descr +
                 "' (supported: bool, int8..int64, uint8..uint64, float16/32/64, little-endian)");
}

}  // namespace

NpyArray read_npy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open");
  std::vector<uint8_t> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (file.size() < 10 || std::memcmp(file.data(), "\x93NUMPY", 6) != 0)
    fail(path, "missing the \\x93NUMPY magic");
  unsigned major = file[6];
  size_t header_len = 0, prefix = 0;
  if (major == 1) {
    header_len = file[8] | (file[9] << 8);
    prefix = 10;
  } else if (major == 2 || major == 3) {
    if (file.size() < 12) fail(path, "truncated header");
    header_len = file[8] | (file[9] << 8) | (size_t(file[10]) << 16) | (size_t(file[11]) << 24);
    prefix = 12;
  } else {
    fail(path, "unknown format version " + std::to_string(major));
  }
  if (file.size() < prefix + header_len) fail(path, "truncated header");
  std::string dict(file.begin() + prefix, file.begin() + prefix + header_len);

  NpyArray a;
  a.path = path;
  std::smatch m;
  if (!std::regex_search(dict, m, std::regex("'descr'\\s*:\\s*'([^']*)'")))
    fail(path, "header has no 'descr'");
  a.descr = m[1];
  a.element = element_type(path, a.descr);
  if (!std::regex_search(dict, m, std::regex("'fortran_order'\\s*:\\s*(True|False)")))
    fail(path, "header has no 'fortran_order'");
  bool fortran = m[1] == "True";
  if (!std::regex_search(dict, m, std::regex("'shape'\\s*:\\s*\\(([^)]*)\\)")))
    fail(path, "header has no 'shape'");
  std::string dims = m[1];
  uint64_t count = 1;
  static const std::regex number("[0-9]+");
  for (std::sregex_iterator it(dims.begin(), dims.end(), number), end; it != end; ++it) {
    a.shape.push_back(std::stoull(it->str()));
    count *= a.shape.back();
  }
  if (fortran && a.shape.size() > 1) fail(path, "Fortran-ordered arrays are not supported");
  uint64_t bytes = count * (type_bits(a.element) / 8);
  size_t data_at = prefix + header_len;
  if (file.size() - data_at != bytes)
    fail(path, "holds " + std::to_string(file.size() - data_at) + " data bytes, its header says " +
                   std::to_string(bytes));
  a.header.assign(file.begin(), file.begin() + data_at);
  a.data.assign(file.begin() + data_at, file.end());
  return a;
}

void write_npy(const NpyArray& a) {
  std::string tmp = a.path + ".warptlm-tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(a.header.data(), static_cast<std::streamsize>(a.header.size()));
    out.write(reinterpret_cast<const char*>(a.data.data()),
              static_cast<std::streamsize>(a.data.size()));
    if (!out) throw std::runtime_error(a.path + ": cannot write the result back");
  }
  // Rename so an interrupted write never leaves a half-written array.
  if (std::rename(tmp.c_str(), a.path.c_str()) != 0)
    throw std::runtime_error(a.path + ": cannot replace it with the result");
}

}  // namespace warptlm::cli
