// Internal: the steps of one supervisor's life (start, wait, retry, record).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>

#include "local/engine.hpp"
#include "local/process.hpp"
#include "local/supervisor.hpp"
#include "local/task_environment.hpp"

namespace trainyard {

/// Waits for any exited child without blocking, so nothing stays a zombie.
void reap_any_children();

/// How one attempt ended.
struct AttemptOutcome {
  ExitStatus status;
  bool stopped = false;       ///< the user asked to stop
  bool timed_out = false;     ///< maxWallClockTime passed
  bool unknown_exit = false;  ///< adopted: the exit code could not be observed
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
  Result<ChildInfo> start_attempt();
  AttemptOutcome wait_attempt(const ChildInfo& child);
  AttemptOutcome watch_adopted();
  bool handle_signal(int sig, pid_t pgid);
  Result<void> record_running(const ChildInfo& child);
  Result<bool> record_outcome(const AttemptOutcome& out);
  Result<void> record_completed(const AttemptOutcome& out);
  Result<bool> stop_requested();
  void start_kill_timer(pid_t pgid);
  void check_deadlines(pid_t pgid);
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
};

}  // namespace trainyard
