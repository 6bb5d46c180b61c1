// SystemC elaborates once per process, so a test that builds and simulates
// SystemC modules runs its body in a forked child of the test process (which
// itself never simulates). The child's assertion failures and exceptions come
// back to the parent as ordinary test failures.
#pragma once

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <exception>
#include <functional>
#include <string>

namespace warptlm::testing {

inline void in_child_process(const std::function<void()>& body) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    close(fds[0]);
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    std::string failures;
    ::testing::TestPartResultArray results;
    try {
      ::testing::ScopedFakeTestPartResultReporter capture(
          ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &results);
      body();
    } catch (const std::exception& e) {
      failures += std::string("exception in the child: ") + e.what() + "\n";
    } catch (...) {
      failures += "unknown exception in the child\n";
    }
    for (int i = 0; i < results.size(); ++i) {
      const ::testing::TestPartResult& r = results.GetTestPartResult(i);
      if (r.failed())
        failures += std::string(r.file_name() ? r.file_name() : "?") + ":" +
                    std::to_string(r.line_number()) + ": " + r.message() + "\n";
    }
    size_t off = 0;
    while (off < failures.size()) {
      ssize_t n = write(fds[1], failures.data() + off, failures.size() - off);
      if (n <= 0) break;
      off += static_cast<size_t>(n);
    }
    close(fds[1]);
    _exit(failures.empty() ? 0 : 1);
  }
  close(fds[1]);
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) text.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFSIGNALED(status))
    ADD_FAILURE() << "the child process died of signal " << WTERMSIG(status) << "\n" << text;
  else if (WEXITSTATUS(status) != 0 || !text.empty())
    ADD_FAILURE() << "in the child process:\n" << text;
}

}  // namespace warptlm::testing
