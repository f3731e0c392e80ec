// The local engine: account `local`, pool `local`, one node with one slot per GPU (or CPU slots).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/entities.hpp"
#include "core/result.hpp"
#include "core/time.hpp"
#include "store/store.hpp"

namespace trainyard {

/// One GPU as the scheduler sees it.
struct GpuSlot {
  int index = 0;
  std::string uuid;
  bool foreign_busy = false;  ///< another user's process holds memory on it
};

/// Lists the GPUs of this machine: empty when it has none (no NVML library: CPU slots); an error
/// when NVML is there but cannot be read, so GPU work waits rather than runs unconfined.
using GpuProbe = std::function<Result<std::vector<GpuSlot>>()>;

/// Settings of the local engine, shared by the CLI, the UI and the supervisors.
struct EngineConfig {
  std::string data_dir;
  std::string trainyard_exe;  ///< binary that runs `__supervise`
  int cpu_slots = 1;          ///< slots when there is no GPU
  GpuProbe gpu_probe;         ///< may be empty
  std::chrono::seconds default_grace{10};
  /// Variables config.json names as secret sources (`keyEnv`, `clientSecretEnv`): scrubbed, with
  /// the fixed list, from what tasks and supervisors inherit (see scrub_environment).
  std::vector<std::string> secret_variables;
};

/// What `trainyard run` asks for.
struct SubmitRequest {
  std::string job = "default";
  std::string id;  ///< empty: generated
  std::string display_name;
  std::string command_line;
  int gpus = 1;              ///< requiredSlots
  std::vector<int> gpu_ids;  ///< pinned GPUs; overrides gpus
  int max_retries = 0;       ///< -1 unlimited
  std::optional<Duration> max_wall;
  std::vector<std::string> after;  ///< JOB/TASK dependencies
  std::string workdir;
  std::vector<std::string> environment;  ///< submitter's NAME=value entries (scrubbed here)
  std::vector<NameValue> environment_settings;
  std::vector<NameValue>
      parameters;  ///< sweep values that made this task (shown in the sweep view)
  /// multiInstanceSettings: more than 1 runs the task as Batch runs a multi-instance task, each
  /// instance on its own `gpus` slots (see local/README.md "Multi-instance tasks").
  int instances = 1;
  std::string coordination_command;  ///< run by every instance before the primary's command
  /// exitConditions as JSON: with the job's onTaskFailure `performexitoptionsjobaction`, what
  /// the task's failure does to its job (local/exit_conditions.hpp).
  std::string exit_conditions;
};

/// Slots a task holds while it runs: requiredSlots for each of its instances.
int slots_held(const Task& t);

/// Batch's id rule: letters, digits, '-' and '_', 1 to 64 characters.
bool is_valid_batch_id(const std::string& id);

/// Schedules and controls local runs through the store; any trainyard process may hold one.
class LocalEngine {
 public:
  LocalEngine(Store& store, EngineConfig config, const Clock& clock);

  /// Records a queued task (creating its job when needed) and starts what fits.
  Result<Task> submit(const SubmitRequest& req);
  /// Re-attaches or fails runs whose supervisor died, then starts queued tasks that fit.
  Result<int> schedule();
  /// Records several tasks atomically (all or none; their job from `job_template` when it is
  /// new), then starts what fits. Used by `trainyard submit` for whole sweeps.
  Result<std::vector<Task>> submit_all(const std::vector<SubmitRequest>& reqs,
                                       const std::optional<Job>& job_template = std::nullopt);
  /// Stops a task: a queued one completes at once, a running one gets SIGTERM then SIGKILL.
  Result<void> request_stop(const std::string& job, const std::string& task,
                            std::optional<std::chrono::seconds> grace = std::nullopt);
  /// Deletes a finished task with its files.
  Result<void> remove(const std::string& job, const std::string& task);
  /// Deletes a job that has no tasks left, with its (empty) run directory.
  Result<void> remove_job(const std::string& job);
  /// Queues a finished task again as its next attempt: same id, command, working directory,
  /// slots, pinned GPUs and environment settings; its retry count starts over (as Batch's
  /// reactivate does) while its attempt number (LocalRun::attempt) goes on, and the finished
  /// attempt's logs are kept as stdout/stderr.attempt-N.txt. A run's saved environment is
  /// deleted when it ends, so the new attempt gets `environment` (the caller's; secrets are
  /// scrubbed). Returns the new attempt's number; a task that has not finished is a Conflict.
  Result<int> reactivate(const std::string& job, const std::string& task,
                         const std::vector<std::string>& environment);
  /// Slots the local node offers now.
  int total_slots() const;
  /// Collects supervisors this process started that have exited (no zombies).
  void reap_children();
  /// Ensures account, pool and node `local` exist in the store.
  Result<Node> ensure_local_node();
  /// The same with `slots` slots, as the caller probed them (inside a write transaction).
  Result<Node> ensure_local_node(int slots);
  /// The settings in use.
  const EngineConfig& config() const { return config_; }

 private:
  struct Placement;
  Result<Task> build_task(const SubmitRequest& req, int slots, int gpu_count);
  Result<void> check_new(const std::vector<Task>& tasks);
  Result<void> record_locked(const std::vector<Task>& tasks, const std::vector<SubmitRequest>& reqs,
                             const std::optional<Job>& job_template);
  void remove_run_dirs(const std::vector<Task>& tasks);
  Result<std::vector<GpuSlot>> probe_gpus() const;
  int slots_for(const Result<std::vector<GpuSlot>>& gpus) const;
  Result<bool> work_pending(int slots);
  void end_lost_groups();
  Result<void> reconcile_locked(std::vector<LocalRun>& lost);
  Result<void> record_lost_locked(const Task& t, LocalRun lr);
  Result<int> start_ready_locked(const Result<std::vector<GpuSlot>>& gpus);
  Result<int> hold_queued_locked(const std::string& why);
  Result<bool> try_start_locked(Task& t, Placement& p);
  Result<void> start_supervisor_locked(Task& t, LocalRun& run, bool adopt);
  Result<void> fail_locked(Task t, const std::string& code, const std::string& message);
  void discard_ended_environments(bool committed);
  Result<std::optional<std::string>> dependency_failure(const Task& t, bool& waiting);
  std::string generate_task_id(const std::string& job);

  Store& store_;
  EngineConfig config_;
  const Clock& clock_;
  std::vector<pid_t> children_;
  std::vector<std::string> ended_runs_;  ///< environment files of runs fail_locked ended
};

/// Sets the local node's live fields (running tasks, slots in use, running/idle) from the tasks.
void fill_local_node_counts(Store& store, Node& node);

/// A pool's nodes as every view shows them: the local node with its live fields filled (its
/// stored copy says idle), a Batch account's as the service last sent them.
Result<std::vector<Node>> nodes_as_shown(Store& store, const std::string& account,
                                         const std::string& pool);

/// The node id of this machine (its host name).
std::string local_node_id();

}  // namespace trainyard
