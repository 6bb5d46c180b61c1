#include "common/buffers.h"

namespace warptlm::scenarios {

HostBuffer poisoned_buffer(std::string name, size_t words) {
  return make_buffer(std::move(name), std::vector<uint32_t>(words, 0xCDCDCDCDu));
}

const HostBuffer& buffer_at(const std::string& scenario, const LaunchSpec& launch, size_t index) {
  if (index >= launch.buffers.size())
    throw std::invalid_argument(scenario + ": the launch has " +
                                std::to_string(launch.buffers.size()) +
                                " buffers, expected at least " + std::to_string(index + 1));
  return launch.buffers[index];
}

void require_arg_count(const std::string& scenario, const LaunchSpec& launch, size_t count) {
  if (launch.args.size() != count)
    throw std::invalid_argument(scenario + ": the launch has " +
                                std::to_string(launch.args.size()) + " arguments, expected " +
                                std::to_string(count));
}

}  // namespace warptlm::scenarios
