// Internal: `trainyard logs --account A …` for Batch and emulator accounts.
#pragma once

#include <string>

#include "commands.hpp"

namespace trainyard {

/// What `logs` was asked for a Batch account.
struct RemoteLogsRequest {
  std::string account;
  std::string target;  ///< JOB/TASK; with `node`, the file's path on the node
  std::string node;    ///< POOL/NODE for a node file; empty for a task's stdout/stderr
  bool follow = false, stderr_stream = false, raw = false, offline = false;
};

/// Reads the file into its cache copy (unless offline) and prints the copy; with `follow`, keeps
/// printing until the task completes (a node file: until interrupted). Returns the exit code.
int remote_logs_command(const CliState& st, const RemoteLogsRequest& request);

}  // namespace trainyard
