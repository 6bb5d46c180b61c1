#include "semantics/address_operand.h"

#include <sstream>

namespace warptlm::sem {

[[noreturn]] void misaligned(const Exec& x, uint64_t addr, unsigned size, unsigned lane) {
  std::ostringstream s;
  s << "misaligned " << size << "-byte " << space_name(x.inst.space) << " access at 0x" << std::hex
    << addr << std::dec << " by lane " << lane << " in '" << x.inst.text << "'";
  throw MemoryFault(MemoryFault::Reason::Misaligned, x.inst.space, addr, size, lane, s.str());
}

}  // namespace warptlm::sem
