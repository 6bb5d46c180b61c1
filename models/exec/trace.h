// The optional per-issued-instruction trace of a run: what the Python API
// returns as Result.trace and what the timing model will emit with cycles.
#pragma once

#include <cstdint>
#include <vector>

#include "frontend/ir.h"
#include "semantics/semantics.h"

namespace warptlm {

struct TraceRecord {
  uint64_t step = 0;   // functional mode: issue order over the whole run, from 0
  uint32_t sm = 0;     // functional mode runs every CTA on SM 0
  uint32_t warp = 0;   // global warp id: linear CTA index * warps per CTA + warp in CTA
  uint32_t split = 0;  // the reconvergence unit's id of the issuing path
  Pc pc = 0;
  LaneMask mask = 0;  // the issuing path's lanes (guarded-off lanes included)
};

// Receives one record per issued warp instruction, in issue order.
class TraceSink {
 public:
  virtual ~TraceSink() = default;
  virtual void issued(const TraceRecord& record) = 0;
};

// The simple sink: keeps every record.
class TraceBuffer : public TraceSink {
 public:
  void issued(const TraceRecord& record) override { records.push_back(record); }
  std::vector<TraceRecord> records;
};

}  // namespace warptlm
