// Tiny warp programs for driving a ReconvergenceUnit without the executor:
// Collange & Brunie's `if (A && B) C; else D; E;`, spin locks, and random
// structured programs whose per-lane traces can be checked. Shared by the
// minority_first and breadth_first tests.
#pragma once

#include <gtest/gtest.h>

#include <bitset>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "simt/reconvergence_unit.h"

namespace warptlm::traversal_test {

inline ControlEvent branch(LaneMask active, LaneMask taken, Pc pc, Pc target, Pc reconv) {
  ControlEvent e;
  e.kind = Control::Branch;
  e.active = active;
  e.executed = taken;
  e.next = pc + 8;
  e.target = target;
  e.reconv = reconv;
  return e;
}

inline ControlEvent plain(LaneMask active, Pc pc, Control kind = Control::None,
                          LaneMask executed = 0) {
  ControlEvent e;
  e.kind = kind;
  e.active = active;
  e.executed = executed ? executed : active;
  e.next = pc + 8;
  return e;
}

using Trace = std::vector<std::pair<Pc, LaneMask>>;
using Program = std::function<ControlEvent(Pc pc, LaneMask active)>;

// Issues the unit's preferred path until it finishes or `max_steps` issued.
inline Trace run(ReconvergenceUnit& unit, const Program& program, size_t max_steps = 10000) {
  Trace trace;
  std::vector<Path> paths;
  while (!unit.finished() && trace.size() < max_steps) {
    paths.clear();
    unit.issuable(paths);
    const Path p = paths.front();
    trace.push_back({p.pc, p.mask});
    unit.advance(p.split, program(p.pc, p.mask));
  }
  return trace;
}

// `if (A && B) C; else D; E;` laid out as a compiler would:
//   0x00 A   0x08 @!a bra D     0x10 B   0x18 @!b bra D
//   0x20 C   0x28 bra E         0x30 D   0x38 D   0x40 E   0x48 exit
// Thread 0 runs ABCE (a, b), thread 1 ADE (!a), threads 2 and 3 ABDE (a, !b).
inline ControlEvent collange_and(Pc pc, LaneMask m) {
  const LaneMask a = 0b1101, b = 0b0001;
  switch (pc) {
    case 0x08:
      return branch(m, m & ~a, pc, 0x30, 0x40);
    case 0x18:
      return branch(m, m & ~b, pc, 0x30, 0x40);
    case 0x28:
      return branch(m, m, pc, 0x40, 0x40);
    case 0x48:
      return plain(m, pc, Control::Exit);
    default:
      return plain(m, pc);
  }
}

// The trace as blocks: consecutive instructions of one block with one mask
// collapse into e.g. "A:1111" (mask printed thread 3 first, as in the paper).
inline std::vector<std::string> collange_blocks(const Trace& trace) {
  std::vector<std::string> out;
  for (const auto& [pc, mask] : trace) {
    std::string s(1, "ABCDE"[pc < 0x40 ? pc / 0x10 : 4]);
    s += ':';
    for (int l = 3; l >= 0; --l) s += (mask >> l) & 1 ? '1' : '0';
    if (out.empty() || out.back() != s) out.push_back(s);
  }
  return out;
}

// A spin lock shared by the lanes of the warp; the lowest contending lane
// wins a compare-and-swap. Two forms (kernel.cu of the spinlock scenario):
// naive: 0x00 cas  0x08 @lost bra 0x00 (IPDOM 0x10)  0x10 critical
//        0x18 release  0x20 exit
// safe:  0x00 cas  0x08 @lost bra 0x20 (IPDOM 0x20)  0x10 critical+release
//        0x18 bra 0x20  0x20 @!done bra 0x00 (IPDOM 0x28)  0x28 exit
struct SpinLock {
  bool naive = true;
  int owner = -1;
  LaneMask won = 0, done = 0;
  bool exclusive = true;  // never more than one lane in the critical section

  ControlEvent operator()(Pc pc, LaneMask m) {
    switch (pc) {
      case 0x00:
        won = 0;
        if (owner < 0) {
          unsigned l = 0;
          while (!((m >> l) & 1)) ++l;
          owner = static_cast<int>(l);
          won = LaneMask(1) << l;
        }
        return plain(m, pc);
      case 0x08:
        return branch(m, m & ~won, pc, naive ? 0x00 : 0x20, naive ? 0x10 : 0x20);
      case 0x10:
        exclusive = exclusive && std::bitset<64>(m).count() == 1;
        if (!naive) release(m);
        return plain(m, pc);
      case 0x18:
        if (!naive) return branch(m, m, pc, 0x20, 0x20);
        release(m);
        return plain(m, pc);
      case 0x20:
        if (naive) return plain(m, pc, Control::Exit);
        return branch(m, m & ~done, pc, 0x00, 0x28);
      default:
        return plain(m, pc, Control::Exit);
    }
  }
  void release(LaneMask m) {
    owner = -1;
    done |= m;
  }
};

// A random structured program: nested if / if-else, guarded exits, one final
// exit. Each lane's branch outcomes are a hash of (seed, pc, lane), so each
// lane's own instruction trace is known without any warp.
class RandomProgram {
 public:
  explicit RandomProgram(uint64_t seed, unsigned width) : seed_(seed), width_(width) {
    block(5);
    code_.push_back({Op::Exit, 0, 0, true});
  }

  ControlEvent operator()(Pc pc, LaneMask m) const {
    const Ins& in = code_[pc / 8];
    switch (in.op) {
      case Op::Cond:
        return branch(m, lanes_where(pc, m, false), pc, in.target, in.reconv);
      case Op::Bra:
        return branch(m, m, pc, in.target, in.reconv);
      case Op::Exit: {
        ControlEvent e = plain(m, pc, Control::Exit);
        e.executed = in.always ? m : lanes_where(pc, m, true);  // may be none
        return e;
      }
      default:
        return plain(m, pc);
    }
  }

  // The pcs lane `l` runs when alone.
  std::vector<Pc> lane_trace(unsigned l) const {
    std::vector<Pc> t;
    for (Pc pc = 0;;) {
      t.push_back(pc);
      const Ins& in = code_[pc / 8];
      bool yes = lanes_where(pc, LaneMask(1) << l, in.op == Op::Exit) != 0;
      if (in.op == Op::Exit && (in.always || yes)) return t;
      pc = (in.op == Op::Cond && yes) || in.op == Op::Bra ? in.target : pc + 8;
    }
  }

 private:
  enum class Op { Plain, Cond, Bra, Exit };
  struct Ins {
    Op op = Op::Plain;
    Pc target = 0, reconv = kExitPc;
    bool always = false;
  };

  uint64_t hash(uint64_t x) const {
    x += seed_ * 0x9e3779b97f4a7c15ULL;
    x ^= x >> 31, x *= 0xbf58476d1ce4e5b9ULL, x ^= x >> 29, x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 32);
  }
  // Lanes of `m` for which the decision at `pc` holds. Branches split
  // evenly, or skewed to all-but-a-few or a-few lanes so that splits are
  // uneven; exits (`rare`) take about one lane in twenty.
  LaneMask lanes_where(Pc pc, LaneMask m, bool rare) const {
    LaneMask out = 0;
    uint64_t skew = hash(pc * 131) % 4;
    for (unsigned l = 0; l < width_; ++l) {
      if (!((m >> l) & 1)) continue;
      uint64_t h = hash(pc * 64 + l);
      bool yes = rare ? h % 20 == 0 : skew == 0 ? h % 16 != 0 : skew == 1 ? h % 16 == 0 : h % 2;
      out |= LaneMask(yes) << l;
    }
    return out;
  }
  Pc here() const { return code_.size() * 8; }
  void block(unsigned depth) {
    unsigned n = 1 + hash(here() + 7) % 4;
    for (unsigned i = 0; i < n; ++i) {
      unsigned kind = depth == 0 ? 0 : hash(here() + 11) % 4;
      if (kind == 0) {
        code_.push_back({Op::Plain});
      } else if (kind == 3) {
        code_.push_back({Op::Exit});
      } else {
        size_t cond = code_.size();
        code_.push_back({Op::Cond});
        block(depth - 1);
        size_t jump = code_.size();
        if (kind == 2) code_.push_back({Op::Bra});
        code_[cond].target = here();
        if (kind == 2) block(depth - 1);
        code_[cond].reconv = here();
        if (kind == 2) code_[jump].target = code_[jump].reconv = here();
      }
    }
  }

  uint64_t seed_;
  unsigned width_;
  std::vector<Ins> code_;
};

// Runs `program` on `unit` and checks every lane ran exactly its own trace.
inline ::testing::AssertionResult runs_each_lane_faithfully(ReconvergenceUnit& unit,
                                                            const RandomProgram& program,
                                                            unsigned width) {
  LaneMask all = width == 64 ? ~LaneMask(0) : (LaneMask(1) << width) - 1;
  unit.reset(0, all);
  Trace trace = run(unit, std::cref(program), 100000);
  if (!unit.finished()) return ::testing::AssertionFailure() << "did not finish";
  std::vector<std::vector<Pc>> got(width);
  for (const auto& [pc, mask] : trace) {
    if (mask == 0) return ::testing::AssertionFailure() << "empty path issued at " << pc;
    for (unsigned l = 0; l < width; ++l)
      if ((mask >> l) & 1) got[l].push_back(pc);
  }
  for (unsigned l = 0; l < width; ++l)
    if (got[l] != program.lane_trace(l))
      return ::testing::AssertionFailure() << "lane " << l << " ran a different trace";
  return ::testing::AssertionSuccess();
}

}  // namespace warptlm::traversal_test
