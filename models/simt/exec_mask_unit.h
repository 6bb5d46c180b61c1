// The warp of compiler-side reconvergence (seed 001; docs/reconverging-cfg.md,
// "Running it"): one pc and an exec mask, no hardware reconvergence
// structure. The program is the exec-mask lowering's, whose instructions do
// the work: emask.defer moves the executing lanes into a re-join mask of the
// current call frame, emask.branchz branches over an empty exec mask,
// emask.join brings a re-join mask's lanes back. Branches left in the program
// are uniform (a jump, or bra.uni): the whole warp goes one way; with an empty
// exec mask, to the branch's reconvergence pc. A call runs the calling lanes
// and brings the others back on return. Registered as scheme "exec_mask",
// whose programs prepare_program() lowers (ProgramForm::ExecMask).
#pragma once

#include <vector>

#include "simt/reconvergence_unit.h"

namespace warptlm {

class ExecMaskUnit : public ReconvergenceUnit {
 public:
  const char* name() const override { return "exec_mask"; }
  void reset(Pc entry, LaneMask mask) override;
  bool finished() const override { return live_ == 0; }
  // One path: the pc and the exec mask (possibly empty while lanes wait).
  void issuable(std::vector<Path>& out) const override;
  // std::logic_error for a branch whose lanes disagree (the lowering leaves
  // only uniform ones) and for a return while lanes still wait in the
  // callee's re-join masks.
  unsigned advance(uint32_t split, const ControlEvent& event) override;
  // The most re-join masks holding lanes at once.
  unsigned max_depth() const override { return counters_.peak_entries; }

  Pc pc() const { return pc_; }
  LaneMask exec() const { return exec_; }
  // Re-join mask `id` of the current call frame.
  LaneMask waiting(uint64_t id) const;

 private:
  struct Frame {
    Pc return_pc;
    LaneMask bystanders;  // lanes of the caller that did not call
    size_t masks_base;    // the caller's re-join masks end here
  };
  LaneMask& mask(uint64_t id);
  void note_waiting();

  Pc pc_ = 0;
  LaneMask exec_ = 0, live_ = 0;
  std::vector<LaneMask> masks_;  // every frame's re-join masks, the current frame's last
  std::vector<Frame> frames_;
};

}  // namespace warptlm
