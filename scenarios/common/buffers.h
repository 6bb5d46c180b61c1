// Conversions between typed host arrays and the little-endian bytes of a
// HostBuffer (device memory is little-endian whatever the host is), and the
// launch-level accessors the host references share.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "exec/launch.h"

namespace warptlm::scenarios {

// A 32- or 64-bit integer or float type.
template <class T>
using EnableElement = std::enable_if_t<(std::is_integral_v<T> || std::is_floating_point_v<T>)&&(
    sizeof(T) == 4 || sizeof(T) == 8)>;

template <class T, class = EnableElement<T>>
HostBuffer make_buffer(std::string name, const std::vector<T>& values) {
  using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  HostBuffer b;
  b.name = std::move(name);
  b.bytes.resize(values.size() * sizeof(T));
  for (size_t i = 0; i < values.size(); ++i) {
    Bits bits;
    std::memcpy(&bits, &values[i], sizeof(T));
    for (size_t k = 0; k < sizeof(T); ++k) b.bytes[i * sizeof(T) + k] = uint8_t(bits >> (8 * k));
  }
  return b;
}

// Throws std::invalid_argument when the buffer is not a whole number of T.
template <class T, class = EnableElement<T>>
std::vector<T> read_buffer(const HostBuffer& b) {
  using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  if (b.bytes.size() % sizeof(T) != 0)
    throw std::invalid_argument("buffer '" + b.name + "' holds " + std::to_string(b.bytes.size()) +
                                " bytes, not a multiple of " + std::to_string(sizeof(T)));
  std::vector<T> values(b.bytes.size() / sizeof(T));
  for (size_t i = 0; i < values.size(); ++i) {
    Bits bits = 0;
    for (size_t k = 0; k < sizeof(T); ++k) bits |= Bits(b.bytes[i * sizeof(T) + k]) << (8 * k);
    std::memcpy(&values[i], &bits, sizeof(T));
  }
  return values;
}

// An output buffer of `words` 32-bit words, every one 0xCDCDCDCD, so an
// element the kernel fails to store shows in the check.
HostBuffer poisoned_buffer(std::string name, size_t words);

// The buffer at `index` of a launch; throws std::invalid_argument naming the
// scenario when the launch has fewer buffers (a check handed the wrong launch).
const HostBuffer& buffer_at(const std::string& scenario, const LaunchSpec& launch, size_t index);

// Throws std::invalid_argument naming the scenario unless the launch has
// exactly `count` arguments, the number its make_launch passes.
void require_arg_count(const std::string& scenario, const LaunchSpec& launch, size_t count);

// `launch` with buffer `index` (which must exist) holding `values` under its
// own name: how expected() fills in an output.
template <class T, class = EnableElement<T>>
LaunchSpec with_buffer(LaunchSpec launch, size_t index, const std::vector<T>& values) {
  HostBuffer& b = launch.buffers.at(index);
  b = make_buffer(b.name, values);
  return launch;
}

// expected() of a kernel whose thread i stores f(i) at element i of buffer
// `index`: the threads below `threads` do; the rest (past the kernel's n)
// store nothing, so their elements keep their initial bytes.
template <class T, class F, class = EnableElement<T>>
LaunchSpec with_thread_results(const LaunchSpec& launch, size_t index, uint64_t threads, F f) {
  std::vector<T> values = read_buffer<T>(launch.buffers.at(index));
  for (size_t i = 0; i < values.size() && i < threads; ++i) values[i] = f(i);
  return with_buffer(launch, index, values);
}

}  // namespace warptlm::scenarios
