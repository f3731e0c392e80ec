// Internal: the steps of one supervisor's life (start, wait, retry, record).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "instance_groups.hpp"
#include "local/engine.hpp"
#include "local/process.hpp"
#include "local/supervisor.hpp"
#include "local/task_environment.hpp"

namespace trainyard {

/// Waits for any exited child without blocking, so nothing stays a zombie.
void reap_any_children();

/// Waits up to `ms` for SIGCHLD, SIGTERM or SIGINT; returns the signal or 0 on timeout.
int wait_signal(std::chrono::milliseconds ms);

/// How one attempt ended.
struct AttemptOutcome {
  ExitStatus status;
  bool stopped = false;           ///< the user asked to stop
  bool timed_out = false;         ///< maxWallClockTime passed
  bool unknown_exit = false;      ///< adopted: the exit code could not be observed
  std::string what = "the task";  ///< the command that failed, for the failure message
};

/// One supervisor's state; see run_supervisor().
class Supervision {
 public:
  Supervision(Store& store, const EngineConfig& config, const Clock& clock, SupervisorArgs args,
              SupervisorHooks hooks);
  /// Supervises to the end; returns the supervisor's exit code.
  int run();
  /// Appends a line to the run's supervisor.txt.
  void log(const std::string& line);

 private:
  Result<bool> claim();
  Result<AttemptOutcome> run_attempt();
  Result<ChildInfo> start_attempt();
  // GPUs (supervision_gpus.cpp): their UUIDs, waiting while NVML cannot name them.
  std::optional<AttemptOutcome> await_gpus();
  Result<void> set_waiting_reason(const std::string& reason);
  std::vector<std::string> uuids_of(const std::vector<int>& ids) const;
  /// Takes into `run` a stop (and its grace) stored since run_ was read, before it is written.
  Result<void> keep_stored_stop(LocalRun& run);
  // Multi-instance tasks (supervision_instances.cpp).
  int instance_count() const;
  TaskEnvironmentInput instance_environment(int instance, const std::string& env_blob);
  Result<std::optional<AttemptOutcome>> run_coordination();
  Result<std::vector<ChildInfo>> start_coordination();
  std::optional<AttemptOutcome> wait_coordination(const std::vector<ChildInfo>& leaders);
  void coordination_exited(size_t instance, const ExitStatus& status);
  void end_instances(const AttemptOutcome& out);
  Result<void> save_subtasks();
  AttemptOutcome wait_attempt(const ChildInfo& child);
  AttemptOutcome watch_adopted();
  bool handle_signal(int sig, pid_t pgid);
  Result<void> record_running(const ChildInfo& child);
  Result<bool> record_outcome(const AttemptOutcome& out);
  Result<void> record_completed(const AttemptOutcome& out);
  Result<bool> stop_requested();
  // A write (synchronous=FULL) retried while another process holds the store's write lock.
  Result<void> write_until_stored(const std::function<Result<void>()>& fn);
  void start_kill_timer(pid_t pgid);
  void check_deadlines(pid_t pgid);
  void signal_all(pid_t pgid, int sig);
  void tick();

  Store& store_;
  const EngineConfig& config_;
  const Clock& clock_;
  SupervisorArgs args_;
  SupervisorHooks hooks_;
  std::chrono::steady_clock::time_point last_tick_{};
  RunPaths paths_;
  Task task_;
  LocalRun run_;
  bool stopping_ = false;
  bool timed_out_ = false;
  std::optional<std::chrono::steady_clock::time_point> wall_deadline_;
  std::optional<std::chrono::steady_clock::time_point> kill_deadline_;
  std::vector<InstanceGroup> instance_groups_;  ///< coordination commands of this attempt
  std::vector<Subtask> subtasks_;               ///< instances 1…N-1
  std::optional<ExitStatus> primary_coordination_;
  std::map<int, std::string> gpu_uuids_;  ///< GPU index → UUID, for this attempt
};

}  // namespace trainyard
