// Helpers for the scoreboard tests: parse a kernel and name the registers of
// its instructions.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "frontend/ptx_parser.h"
#include "sm/scoreboard/register_operands.h"

namespace warptlm::test {

using Names = std::vector<std::string>;

// A module whose last function is kernel `k` with `body`; `funcs` come before it.
inline Module parse_body(const std::string& body, const std::string& funcs = "") {
  return parse_ptx(".version 7.0\n.target sm_70\n.address_size 64\n" + funcs +
                   ".visible .entry k(.param .u64 p)\n{\n" + body + "\n}\n");
}

// The register index of `name` in the function holding `pc`.
inline uint32_t reg_index(const Module& m, Pc pc, const std::string& name) {
  const Function& f = m.function_at(pc);
  for (size_t i = 0; i < f.regs.size(); ++i)
    if (f.regs[i].name == name) return static_cast<uint32_t>(i);
  throw std::invalid_argument("no register " + name);
}

inline Names names(const Module& m, Pc pc, const uint32_t* regs, unsigned n) {
  Names out;
  for (unsigned i = 0; i < n; ++i) out.push_back(m.function_at(pc).regs.at(regs[i]).name);
  return out;
}

}  // namespace warptlm::test
