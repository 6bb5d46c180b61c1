// Paths for a test's scratch files. CTest runs the tests of one executable as
// separate processes in parallel, so a fixed name under TempDir() is shared
// between tests that run at the same time; the process id keeps them apart.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

namespace warptlm::testing {

inline std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "warptlm_" + std::to_string(getpid()) + "_" + name;
}

}  // namespace warptlm::testing
