// Process mechanics of local runs: spawning in new sessions, waiting, signalling groups.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace trainyard {

/// What to start for one task attempt.
struct ChildSpec {
  std::string command_line;      ///< run through /bin/sh -c
  std::vector<std::string> env;  ///< NAME=value entries, the whole environment
  std::string workdir;
  std::string stdout_path;  ///< opened O_APPEND|O_CREAT
  std::string stderr_path;
};

/// A started process, identified by pid and its kernel start time.
struct ChildInfo {
  pid_t pid = 0;
  pid_t pgid = 0;
  int64_t start_ticks = 0;
};

/// How a process ended.
struct ExitStatus {
  std::optional<int> exit_code;  ///< set when it exited
  std::optional<int> signal;     ///< set when a signal ended it
  /// The code `trainyard wait` exits with: the exit code, or 128+N for signal N.
  int shell_code() const { return exit_code ? *exit_code : 128 + signal.value_or(0); }
};

/// Starts `/bin/sh -c command_line` in a new session (its own process group).
Result<ChildInfo> spawn_task_process(const ChildSpec& spec);

/// Starts a detached helper (the supervisor) in a new session with SIGTERM, SIGINT and
/// SIGCHLD blocked, so a stop sent before it installs its handling is not lost. `env` is its
/// whole environment (NAME=value entries).
Result<ChildInfo> spawn_detached(const std::string& exe, const std::vector<std::string>& args,
                                 const std::vector<std::string>& env);

/// Converts a waitpid status.
ExitStatus decode_wait_status(int status);

/// /proc/<pid>/<name> whole; empty when the process is gone or the file unreadable (never throws).
std::string read_proc_file(pid_t pid, const char* name);

/// Field 22 of /proc/<pid>/stat (start time in clock ticks); nullopt when the process is gone.
std::optional<int64_t> process_start_ticks(pid_t pid);

/// True when `pid` is alive, not a zombie, and started at `start_ticks` (guards against reuse).
bool process_matches(pid_t pid, int64_t start_ticks);

/// The live processes of process group `pgid`, from /proc.
std::vector<pid_t> group_members(pid_t pgid);

/// True when /proc/<pid>/environ holds exactly the entry `NAME=value` (false when unreadable).
bool environment_holds(pid_t pid, const std::string& entry);

/// True when any process of the group is alive.
bool group_alive(pid_t pgid);

/// Sends `sig` to the group; ESRCH (already gone) counts as success.
Result<void> signal_group(pid_t pgid, int sig);

/// SIGTERM to the group, then SIGKILL after `grace` if any member is left; waits until gone.
/// `reap` is called while waiting so a parent can collect its children.
void terminate_group(pid_t pgid, std::chrono::milliseconds grace, void (*reap)() = nullptr);

/// `'it'\''s'`-style quoting of words for /bin/sh, leaving safe words bare.
std::string shell_quote(const std::vector<std::string>& words);

/// Absolute path of the running executable.
std::string self_executable();

}  // namespace trainyard
