// Internal: a plugin's command run with /bin/sh -c in a process group of its own, its stdout and
// stderr read together, killed when it runs past its time or is cancelled.
#pragma once

#include <atomic>
#include <chrono>
#include <string>
#include <vector>

namespace trainyard {

/// How a plugin's command ended and what it printed.
struct PluginOutcome {
  std::string output;      ///< stdout and stderr as they came (at most 1 MiB)
  int exit_code = -1;      ///< the shell's exit status; 128+N for signal N
  bool timed_out = false;  ///< killed after its time
  bool cancelled = false;  ///< killed because the TUI ended
  std::string error;       ///< it could not be started (then nothing else holds)
};

/// Runs `command` with exactly `env` (NAME=value entries), stdin from /dev/null, for at most
/// `limit`; `cancel` set ends it early.
PluginOutcome run_plugin_command(const std::string& command, const std::vector<std::string>& env,
                                 std::chrono::milliseconds limit, const std::atomic<bool>& cancel);

}  // namespace trainyard
