#include "semantics/address_operand.h"

#include <sstream>

namespace warptlm::sem {

[[noreturn]] void misaligned(const Instruction& in, uint64_t addr, unsigned size, unsigned lane) {
  std::ostringstream s;
  s << "misaligned " << size << "-byte " << space_name(in.space) << " access at 0x" << std::hex
    << addr << std::dec << " by lane " << lane << " in '" << in.text << "'";
  throw MemoryFault(MemoryFault::Reason::Misaligned, in.space, addr, size, lane, s.str());
}

}  // namespace warptlm::sem
