// Checks a launch against the kernel's signature and builds the parameter
// buffer the kernel's ld.param instructions read.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "exec/launch.h"
#include "frontend/ir.h"

namespace warptlm {

// Throws std::invalid_argument naming the kernel, the argument and what is wrong.
void check_launch(const Module& module, const Function& kernel, const LaunchSpec& launch,
                  unsigned warp_size);

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

}  // namespace warptlm
