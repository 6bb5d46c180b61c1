// A check shared by the environments' tests: special_lanes() against
// special() lane by lane.
#pragma once

#include <gtest/gtest.h>

#include "semantics/semantics.h"

namespace warptlm::testing {

// special_lanes() answers what special() answers lane by lane, for every
// special register and component, on full, partial, single-lane and empty
// masks, and leaves the other lanes' entries alone.
inline void expect_special_lanes_match(WarpEnvironment& env, unsigned lanes) {
  for (unsigned s = 0; s <= static_cast<unsigned>(SpecialReg::EnvReg); ++s) {
    const SpecialReg sreg = static_cast<SpecialReg>(s);
    for (unsigned comp = 0; comp < 3; ++comp) {
      const LaneMask full = (LaneMask(1) << lanes) - 1;
      for (LaneMask m : {full, full & 0b1010, LaneMask(0b100), LaneMask(0)}) {
        uint64_t got[kMaxWarpSize];
        for (uint64_t& v : got) v = 0xeeee;
        env.special_lanes(sreg, comp, m, got);
        for (unsigned l = 0; l < lanes; ++l) {
          const uint64_t want = (m >> l) & 1 ? env.special(sreg, comp, l) : 0xeeee;
          EXPECT_EQ(got[l], want) << "special " << s << " comp " << comp << " lane " << l;
        }
      }
    }
  }
}

}  // namespace warptlm::testing
