// Remembers which input port a payload entered a routing component through, so its response goes
// back the same way. The extension is private to the component class `Owner` (its own extension
// id), is attached the first time the component sees a payload and then stays attached: the
// payload owns and deletes it, so pooled payloads cost one allocation ever, and no component holds
// a pointer that could dangle. The same class may not appear twice on one payload's path.
// A pooled payload (pooled_payload.h) keeps the port in its own slot `Owner::kRouteSlot`
// instead, without the extension lookup.
#pragma once

#include <tlm>

#include "transaction/pooled_payload.h"

namespace warptlm {

template <typename Owner>
struct RouteExtension : tlm::tlm_extension<RouteExtension<Owner>> {
  unsigned input = 0;

  tlm::tlm_extension_base* clone() const override { return new RouteExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    input = static_cast<const RouteExtension&>(other).input;
  }
};

template <typename Owner>
void set_route(tlm::tlm_generic_payload& payload, unsigned input) {
  static_assert(Owner::kRouteSlot < PooledPayload::kRouteSlots, "a route slot per owner");
  if (PooledPayload* p = PooledPayload::of(payload)) {
    p->route[Owner::kRouteSlot] = input;
    return;
  }
  auto* ext = payload.get_extension<RouteExtension<Owner>>();
  if (!ext) {
    ext = new RouteExtension<Owner>;
    payload.set_extension(ext);
  }
  ext->input = input;
}

template <typename Owner>
unsigned route_of(const tlm::tlm_generic_payload& payload) {
  if (const PooledPayload* p = PooledPayload::of(payload)) return p->route[Owner::kRouteSlot];
  return payload.get_extension<RouteExtension<Owner>>()->input;
}

}  // namespace warptlm
