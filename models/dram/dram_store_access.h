// Moves a payload's data between the DRAM model and its backing store
// (DeviceMemory). Caches move whole lines, and an allocation need not end on a
// line boundary, so an access is in range when it lies inside one allocation
// rounded up to whole lines: the bytes past the allocation's real end read as
// zero and writes to them are dropped. Anything else (a gap, another
// allocation's tail, two allocations at once) is an address error.
#pragma once

#include <tlm>

#include "memory/device_memory.h"

namespace warptlm {

// Reads copy the store into the payload, writes copy the payload into the
// store (honouring byte enables); TLM_IGNORE_COMMAND moves nothing. Returns
// TLM_OK_RESPONSE, TLM_ADDRESS_ERROR_RESPONSE (out of range: nothing moved) or,
// unless `debug` (debug transport has no streaming width), TLM_BURST_ERROR_RESPONSE
// for a streaming width shorter than the length.
tlm::tlm_response_status dram_transfer(DeviceMemory& store, unsigned line,
                                       tlm::tlm_generic_payload& trans, bool debug);

}  // namespace warptlm
