// The environment a local task runs with, and the run directory layout.
#pragma once

#include <string>
#include <vector>

#include "core/atomic_file.hpp"
#include "core/entities.hpp"
#include "core/result.hpp"

namespace trainyard {

/// True for variables that hold secrets and never reach a task, a supervisor or a file: the
/// fixed list (AZURE_BATCH_ACCESS_KEY, AZURE_CLIENT_SECRET, …) and every name in `configured`
/// (the variables config.json names as secret sources: `keyEnv`, `clientSecretEnv`).
bool is_secret_variable(const std::string& name, const std::vector<std::string>& configured = {});

/// `env` (NAME=value entries) less every secret variable (see is_secret_variable) and less
/// entries without '='. What every child trainyard starts gets: tasks and supervisors.
std::vector<std::string> scrub_environment(const std::vector<std::string>& env,
                                           const std::vector<std::string>& configured = {});

/// The current process environment as NAME=value entries.
std::vector<std::string> current_environment();

/// Names the run directory in every process of a run (after the task's own settings, so it
/// cannot be overridden): what proves a process group whose leader has exited is still the run's.
inline constexpr const char* kRunDirVariable = "TRAINYARD_RUN_DIR";

/// The local node's folders, laid out under the data directory as Batch lays out a node's
/// (`/mnt/batch/tasks`): AZ_BATCH_NODE_ROOT_DIR, AZ_BATCH_NODE_SHARED_DIR and
/// AZ_BATCH_NODE_STARTUP_DIR, and the Batch AI mount root a local run defaults to.
struct NodeDirs {
  std::string root;        ///< the data directory
  std::string shared;      ///< <data>/shared
  std::string startup;     ///< <data>/startup
  std::string mount_root;  ///< <data>/shared/LS_root/mounts, Batch AI's place for mounts
};

/// The node folders of a data directory.
NodeDirs node_dirs(const std::string& data_dir);

/// Creates the shared and startup folders, which Batch guarantees a task.
Result<void> make_node_dirs(const NodeDirs& dirs);

/// What the task environment is built from.
struct TaskEnvironmentInput {
  std::vector<std::string> submitter_env;  ///< already scrubbed
  const Task* task = nullptr;
  std::string node_id;
  std::string data_dir;                ///< the node's root (node_dirs); empty: no AZ_BATCH_NODE_*
  std::string task_dir;                ///< runs/<job>/<task>
  std::string working_dir;             ///< where the command runs
  std::vector<std::string> gpu_uuids;  ///< empty: CUDA_VISIBLE_DEVICES left as submitted
  int attempt = 0;
  int instance = 0;        ///< multi-instance: this instance's index, 0 for the primary
  std::string shared_dir;  ///< multi-instance: AZ_BATCH_TASK_SHARED_DIR (the primary's task dir)
  std::string run_dir;     ///< kRunDirVariable's value; empty: not set
};

/// submitter env + PYTHONUNBUFFERED + environmentSettings + AZ_BATCH_* (the node folders of
/// node_dirs) + CUDA_VISIBLE_DEVICES +
/// TRAINYARD_RUN_DIR;
/// for a multi-instance task also AZ_BATCH_MASTER_NODE, AZ_BATCH_IS_CURRENT_NODE_MASTER,
/// AZ_BATCH_TASK_SHARED_DIR and TRAINYARD_INSTANCE_{INDEX,COUNT}.
std::vector<std::string> build_task_environment(const TaskEnvironmentInput& in);

/// Paths of one local task's files under the data directory.
struct RunPaths {
  std::string dir;          ///< <data>/runs/<job>/<task>
  std::string command;      ///< the command line, read by the supervisor
  std::string environment;  ///< NUL-separated NAME=value, mode 0600
  std::string stdout_txt;
  std::string stderr_txt;
  std::string supervisor_log;
};

/// The paths for a task.
RunPaths run_paths(const std::string& data_dir, const std::string& job, const std::string& task);

/// Reads a whole small file.
Result<std::string> read_small_file(const std::string& path);

/// Creates a directory and its parents.
Result<void> make_directories(const std::string& path);

/// `stdout.attempt-N.txt` beside `log` (a run's stdout.txt or stderr.txt): where attempt N's log is
/// kept once the next attempt starts.
std::string attempt_log_path(const std::string& log, int attempt);

/// Moves stdout.txt/stderr.txt aside as stdout.attempt-N.txt before attempt N+1 starts.
void keep_attempt_logs(const RunPaths& paths, int finished_attempt);

}  // namespace trainyard
