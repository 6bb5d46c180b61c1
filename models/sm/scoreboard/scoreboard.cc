#include "sm/scoreboard/scoreboard.h"

#include <sstream>
#include <stdexcept>
#include <string>

namespace warptlm {

namespace {

[[noreturn]] void lane_error(const char* what, uint32_t reg, LaneMask lanes, LaneMask pending) {
  std::ostringstream s;
  s << "lanes: " << what << " of register " << reg << " on lanes 0x" << std::hex << lanes
    << " while lanes 0x" << pending << " are pending";
  throw std::invalid_argument(s.str());
}

}  // namespace

Scoreboard::Scoreboard(unsigned registers) { reset(registers); }

void Scoreboard::reset(unsigned registers) {
  pending_.assign(registers, 0);
  pending_registers_ = 0;
}

void Scoreboard::out_of_range(uint32_t reg, size_t registers) {
  throw std::invalid_argument("ops: register " + std::to_string(reg) +
                              " out of range (the scoreboard has " + std::to_string(registers) +
                              ")");
}

void Scoreboard::bad_reserve(const RegisterOperands& ops, LaneMask lanes) const {
  const size_t n = pending_.size();
  for (unsigned i = 0; i < ops.n_reads; ++i)
    if (ops.reads()[i] >= n) out_of_range(ops.reads()[i], n);
  for (unsigned i = 0; i < ops.n_writes; ++i)
    if (ops.writes()[i] >= n) out_of_range(ops.writes()[i], n);
  for (unsigned i = 0; i < ops.n_writes; ++i) {
    const uint32_t r = ops.writes()[i];
    if (pending_[r] & lanes) lane_error("a second pending write", r, lanes, pending_[r]);
  }
  throw std::logic_error("bad_reserve: the reservation is valid");
}

void Scoreboard::bad_release(const RegisterOperands& ops, LaneMask lanes) const {
  const size_t n = pending_.size();
  for (unsigned i = 0; i < ops.n_writes; ++i) {
    const uint32_t r = ops.writes()[i];
    if (r >= n) out_of_range(r, n);
    if ((pending_[r] & lanes) != lanes) lane_error("release", r, lanes, pending_[r]);
  }
  throw std::logic_error("bad_release: the release is valid");
}

bool Scoreboard::blocked_any_lane(const RegisterOperands& ops) const {
  const size_t n = pending_.size();
  for (unsigned i = 0; i < ops.n_reads; ++i) {
    const uint32_t r = ops.reads()[i];
    if (r >= n) out_of_range(r, n);
    if (pending_[r]) return true;
  }
  for (unsigned i = 0; i < ops.n_writes; ++i) {
    const uint32_t r = ops.writes()[i];
    if (r >= n) out_of_range(r, n);
    if (pending_[r]) return true;
  }
  return false;
}

}  // namespace warptlm
