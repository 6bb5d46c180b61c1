// Checks a launch against the kernel's signature and builds the parameter
// buffer the kernel's ld.param instructions read.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "exec/launch.h"
#include "frontend/ir.h"

namespace warptlm {

// Throws std::invalid_argument naming the kernel, the argument and what is wrong.
// `buffer_sizes`, when given, holds the size of each of launch.buffers (for
// buffers already in device memory, whose bytes the spec does not carry).
void check_launch(const Module& module, const Function& kernel, const LaunchSpec& launch,
                  unsigned warp_size, const std::vector<uint64_t>* buffer_sizes = nullptr);

// The module's kernel entries for a message: the first ten by name, then "and
// N more" (a module may hold hundreds of thousands), or "none".
std::string kernel_names_text(const Module& module);

// `buffer_addresses[i]` is the device address of launch.buffers[i];
// `descriptors_address` where image_descriptors() were written (image i's
// handle is descriptors_address + i * kImageDescBytes).
std::vector<uint8_t> build_param_buffer(const Module& module, const Function& kernel,
                                        const LaunchSpec& launch,
                                        const std::vector<uint64_t>& buffer_addresses,
                                        uint64_t descriptors_address = 0);

// The descriptors of launch.images, one after another (empty without
// images), for texels at the buffers' addresses: what a host writes in
// device memory before the launch, as cudaCreateTextureObject does.
std::vector<uint8_t> image_descriptors(const LaunchSpec& launch,
                                       const std::vector<uint64_t>& buffer_addresses);

// What a launch puts in device memory besides its buffers and parameters:
// its image descriptors and, for a cooperative launch, the zeroed grid
// workspace. `place(data, bytes, what)` allocates `bytes` of device memory
// named `what`, copies `data` there and returns the address; each runner
// (functional, timing, the host CPU model) passes its own. 0 for what the
// launch does not have.
struct LaunchExtras {
  uint64_t descriptors = 0;
  uint64_t workspace = 0;
};
using PlaceFn = std::function<uint64_t(const uint8_t* data, uint64_t bytes, const char* what)>;
LaunchExtras place_launch_extras(const LaunchSpec& launch,
                                 const std::vector<uint64_t>& buffer_addresses,
                                 const PlaceFn& place);

}  // namespace warptlm
