// Hand-made ControlEvents for driving a reconvergence unit without an executor.
#pragma once

#include "simt/reconvergence_unit.h"

namespace warptlm::testing {

// A branch at `pc` taken by `taken` of `active`, reconverging at `reconv`.
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

// Any non-branch instruction at `pc`; `executed` defaults to every active lane.
inline ControlEvent plain(LaneMask active, Pc pc, Control kind = Control::None,
                          LaneMask executed = 0) {
  ControlEvent e;
  e.kind = kind;
  e.active = active;
  e.executed = executed ? executed : active;
  e.next = pc + 8;
  return e;
}

inline ControlEvent call(LaneMask active, Pc pc, Pc callee, LaneMask executed = 0) {
  ControlEvent e = plain(active, pc, Control::Call, executed);
  e.target = callee;
  return e;
}

}  // namespace warptlm::testing
