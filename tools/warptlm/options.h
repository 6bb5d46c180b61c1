// Command-line parsing helpers shared by the warptlm subcommands.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "exec/launch.h"

namespace warptlm::cli {

// A usage error: printed with the command's usage, exit status 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Arguments after the subcommand: flags "--name value" and positionals.
class Args {
 public:
  Args(int argc, char** argv, int first);
  // Takes the value of --name (the last one if repeated); false if absent.
  bool take(const std::string& name, std::string* value);
  std::vector<std::string> take_all(const std::string& name);
  bool take_flag(const std::string& name);
  std::vector<std::string> positionals() const { return positionals_; }
  // Throws UsageError for any flag nobody took.
  void finish() const;

 private:
  std::vector<std::pair<std::string, std::string>> flags_;
  std::vector<bool> taken_;
  std::vector<std::string> positionals_;
  std::vector<std::string> switches_;
};

Dim3 parse_dim3(const std::string& flag, const std::string& text);
uint64_t parse_uint(const std::string& flag, const std::string& text, uint64_t max);
// "i32:256", "u64:7", "f32:1.5": a kernel scalar argument.
KernelArg parse_scalar(const std::string& text);

}  // namespace warptlm::cli
