// The TLM test bench in one include: the AT traffic generator (initiator) and the memory targets
// (AT with fixed latency, b_transport-only behind a simple_target_socket, and the foreign
// b_transport-only memory on a plain socket). Every simulating test wraps its body in
// warptlm::testing::in_child_process (SystemC elaborates once per process).
#pragma once

#include "common/systemc_child.h"
#include "common/tlm_memory_target.h"
#include "common/tlm_traffic_generator.h"
