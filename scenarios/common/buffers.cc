#include "common/buffers.h"

namespace warptlm::scenarios {

const HostBuffer& buffer_at(const std::string& scenario, const LaunchSpec& launch, size_t index) {
  if (index >= launch.buffers.size())
    throw std::invalid_argument(scenario + ": the launch has " +
                                std::to_string(launch.buffers.size()) +
                                " buffers, expected at least " + std::to_string(index + 1));
  return launch.buffers[index];
}

}  // namespace warptlm::scenarios
