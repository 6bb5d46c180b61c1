// The values of `exec`'s --grid/--block and --arg TYPE:VALUE, parsed once for
// both CLIs (the Python extension links this too), so they accept and refuse
// the same texts with the same words.
#pragma once

#include <stdexcept>
#include <string>

#include "exec/launch.h"

namespace warptlm::cli {

// A usage error found after parsing (a bad value): exit status 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// "X[,Y[,Z]]" of positive integers; UsageError naming `flag` otherwise.
Dim3 parse_dim3(const std::string& flag, const std::string& text);
// "i32:256", "u64:7", "f32:1.5": a kernel scalar argument. Integers take any
// value representable in the type's width (u32:-1 is 0xffffffff).
KernelArg parse_scalar(const std::string& text);

}  // namespace warptlm::cli
