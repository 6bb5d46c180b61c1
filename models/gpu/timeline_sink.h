// Turns the SMs' issue records into a warp timeline in Chrome trace-event
// JSON (opens in Perfetto / chrome://tracing): one track per warp, grouped by
// SM, one slice per issued instruction named by its PTX text. Forwards every
// record to an optional second sink, so a run can keep its issue trace too.
#pragma once

#include <vector>

#include "exec/trace.h"
#include "frontend/ir.h"
#include "trace/chrome_trace.h"

namespace warptlm {

class TimelineSink : public TraceSink {
 public:
  TimelineSink(const Module& module, ChromeTrace& timeline, TraceSink* next = nullptr)
      : module_(module), timeline_(timeline), next_(next) {}
  void issued(const TraceRecord& r) override {
    const Instruction& in = module_.at(r.pc);
    timeline_.slice(r.sm, r.warp, in.text, r.step, 1, r.mask);
    if (next_) next_->issued(r);
  }

 private:
  const Module& module_;
  ChromeTrace& timeline_;
  TraceSink* next_;
};

}  // namespace warptlm
