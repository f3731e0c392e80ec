// Running other programs: one with its output read into memory under a deadline (a credential
// helper, a key command, an alert, a plugin), one in the foreground on the user's terminal (ssh,
// an editor), and the pieces the long-lived launchers share.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace trainyard {

/// A program run with its output read into memory.
struct CapturedRun {
  /// The words, without a shell (a shell command is {"/bin/sh", "-c", text}); argv[0] is looked
  /// up in PATH when it has no `/`.
  std::vector<std::string> argv;
  /// Its environment as NAME=value entries; none: this process's.
  std::optional<std::vector<std::string>> env;
  bool merge_stderr = false;            ///< stderr into `out` (as a terminal would show them)
  size_t output_cap = size_t{1} << 20;  ///< bytes kept of each stream; the rest is read and dropped
  std::chrono::steady_clock::time_point deadline;  ///< past it the program is killed
  const std::atomic<bool>* cancel = nullptr;       ///< when set, looked at every 100 ms
};

/// What a captured program left.
struct CapturedOutput {
  std::string out, err;
  int exit_status = 0;  ///< its exit code, or 128 + the signal that ended it
  int signal = 0;       ///< the signal that ended it, or 0
  bool timed_out = false, cancelled = false;
};

/// Runs `run.argv` in a process group of its own, stdin from /dev/null, SIGPIPE at its default
/// and no signal blocked, and reads its stdout and stderr until both close. Past the deadline, or
/// once cancelled, the whole group is killed; the program is always reaped. An error only when
/// it could not start, naming argv[0].
Result<CapturedOutput> run_captured(const CapturedRun& run);

/// Runs `argv` (looked up in PATH) with environment `env` on this terminal and waits for it: the
/// child gets Ctrl-C, this process ignores it meanwhile. Its exit code, or 128 + the signal that
/// ended it; an error when it could not start (`cannot run ssh: No such file or directory`).
Result<int> run_foreground(const std::vector<std::string>& argv,
                           const std::vector<std::string>& env);

/// Waits for `pid` up to `limit`; true when it ended (or cannot be waited for), its wait status
/// in `status`.
bool reaped_by(pid_t pid, std::chrono::steady_clock::time_point limit, int& status);

/// The exit code of a wait status, or 128 + the signal that ended the process.
int exit_code_of(int wait_status);

/// exec's argv (or envp) for `words`: a pointer to each word, then nullptr. The words must
/// outlive it.
std::vector<char*> exec_argv(const std::vector<std::string>& words);

}  // namespace trainyard
