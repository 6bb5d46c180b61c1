// A payload made by a PayloadPool. Its GpuExtension lives inside it: it is also
// attached with set_extension, so a foreign target finds it with
// get_extension as usual, while warptlm's components reach it (and the routing
// components their return port) directly, without the extension array lookup
// (an out-of-line call and, on a payload last touched many cycles before, a
// cache miss, about 14 times per transaction). Payloads of other origins work
// as before through their extensions.
#pragma once

#include <cstdint>
#include <tlm>
#include <typeinfo>
#include <vector>

#include "transaction/gpu_extension.h"

namespace warptlm {

class PooledPayload final : public tlm::tlm_generic_payload {
 public:
  // Routing components that keep a payload's input port here (route_extension.h).
  static constexpr unsigned kRouteSlots = 2;

  PooledPayload(tlm::tlm_mm_interface* mm, unsigned bytes)
      : tlm_generic_payload(mm), buffer(bytes) {
    set_extension(&gpu);
  }
  // `gpu` is a member, not the payload's to free: detach it first.
  ~PooledPayload() override { clear_extension(&gpu); }
  PooledPayload(const PooledPayload&) = delete;
  PooledPayload& operator=(const PooledPayload&) = delete;

  // `p` as a pooled payload, or nullptr when it was made elsewhere.
  static PooledPayload* of(tlm::tlm_generic_payload& p) {
    return typeid(p) == typeid(PooledPayload) ? static_cast<PooledPayload*>(&p) : nullptr;
  }
  static const PooledPayload* of(const tlm::tlm_generic_payload& p) {
    return typeid(p) == typeid(PooledPayload) ? static_cast<const PooledPayload*>(&p) : nullptr;
  }

  GpuExtension gpu;
  uint32_t route[kRouteSlots] = {};
  std::vector<unsigned char> buffer;  // where the data pointer starts out
};

// The payload's GpuExtension (nullptr when it has none).
inline GpuExtension* gpu_extension(tlm::tlm_generic_payload& p) {
  if (PooledPayload* pp = PooledPayload::of(p)) return &pp->gpu;
  return p.get_extension<GpuExtension>();
}
inline const GpuExtension* gpu_extension(const tlm::tlm_generic_payload& p) {
  if (const PooledPayload* pp = PooledPayload::of(p)) return &pp->gpu;
  return p.get_extension<GpuExtension>();
}

}  // namespace warptlm
