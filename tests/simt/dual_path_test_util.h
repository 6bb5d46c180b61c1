// A tiny control-flow program for driving reconvergence units without the
// front end: each PC is a plain instruction, a branch (which lanes take it),
// a jump, a Reconverge marker or an exit. run() issues the unit's paths and
// records the (pc, mask) issue order, so tests compare it with the order
// derived by hand.
#pragma once

#include <map>
#include <utility>
#include <vector>

#include "simt/reconvergence_unit.h"

namespace warptlm::testing {

struct Op {
  enum Kind { Plain, Branch, Jump, Marker, Exit } kind = Plain;
  Pc target = 0;
  LaneMask taken = 0;  // Branch: the lanes whose guard holds
  Pc reconv = kExitPc;
};

using Issue = std::pair<Pc, LaneMask>;

class ToyProgram {
 public:
  ToyProgram& branch(Pc pc, Pc target, LaneMask taken, Pc reconv) {
    ops_[pc] = {Op::Branch, target, taken, reconv};
    return *this;
  }
  ToyProgram& jump(Pc pc, Pc target) {
    ops_[pc] = {Op::Jump, target, 0, kExitPc};
    return *this;
  }
  ToyProgram& marker(Pc pc) {
    ops_[pc] = {Op::Marker};
    return *this;
  }
  ToyProgram& exit(Pc pc) {
    ops_[pc] = {Op::Exit};
    return *this;
  }

  // The event issuing `p` produces (PCs not listed are plain instructions).
  ControlEvent event(const Path& p) const {
    ControlEvent e;
    e.active = e.executed = p.mask;
    e.next = p.pc + 8;
    auto it = ops_.find(p.pc);
    if (it == ops_.end()) return e;
    const Op& op = it->second;
    switch (op.kind) {
      case Op::Branch:
        e.kind = Control::Branch;
        e.executed = p.mask & op.taken;
        e.target = op.target;
        e.reconv = op.reconv;
        break;
      case Op::Jump:
        e.kind = Control::Branch;
        e.target = op.target;
        break;
      case Op::Marker:
        e.marker = true;
        break;
      case Op::Exit:
        e.kind = Control::Exit;
        break;
      case Op::Plain:
        break;
    }
    return e;
  }

  // Runs `unit` from `entry` until it finishes, issuing the first issuable
  // path (or the last one with `last_first`), and returns the issue order.
  std::vector<Issue> run(ReconvergenceUnit& unit, Pc entry, LaneMask mask,
                         bool last_first = false) const {
    std::vector<Issue> order;
    std::vector<Path> paths;
    unit.reset(entry, mask);
    while (!unit.finished() && order.size() < 1000) {
      paths.clear();
      unit.issuable(paths);
      if (paths.empty()) break;
      const Path& p = last_first ? paths.back() : paths.front();
      order.push_back({p.pc, p.mask});
      unit.advance(p.split, event(p));
    }
    return order;
  }

 private:
  std::map<Pc, Op> ops_;
};

}  // namespace warptlm::testing
