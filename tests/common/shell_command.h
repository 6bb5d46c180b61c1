// Runs a shell command for the end-to-end tests of the CLI: its exit status
// and its output (stdout and stderr together).
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace warptlm::testing {

struct CommandResult {
  int status = -1;     // exit status; -1 when it did not exit normally
  std::string output;  // stdout and stderr together
};

inline CommandResult run_shell(const std::string& command) {
  const std::string cmd = command + " 2>&1";
  CommandResult r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.output.append(buf, n);
  const int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

}  // namespace warptlm::testing
