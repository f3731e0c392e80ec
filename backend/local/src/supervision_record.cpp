// Recording how an attempt ended: retry, success or failure.
#include <csignal>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "supervision.hpp"

namespace trainyard {
namespace {

bool retries_left(const Task& t) {
  int max = t.constraints.max_task_retry_count;
  return max < 0 || t.execution_info.retry_count < max;
}

FailureInfo failure_for(const AttemptOutcome& out) {
  if (out.stopped) return {ErrorCategory::UserError, "TaskTerminated", "stopped by the user"};
  if (out.timed_out)
    return {ErrorCategory::UserError, "MaxWallClockTimeExceeded",
            "the task ran longer than its maxWallClockTime"};
  if (out.unknown_exit)
    return {ErrorCategory::ServerError, "ExitCodeUnknown",
            "re-attached after its supervisor ended; the exit code could not be observed"};
  if (out.status.signal)
    return {ErrorCategory::UserError, "TaskEndedBySignal",
            fmt::format("{} was killed by signal {} ({})", out.what, *out.status.signal,
                        strsignal(*out.status.signal))};
  return {ErrorCategory::UserError, "FailureExitCode",
          fmt::format("{} exited with code {}", out.what, out.status.exit_code.value_or(-1))};
}

bool succeeded(const AttemptOutcome& out) {
  return !out.stopped && !out.timed_out && !out.unknown_exit && out.status.exit_code == 0;
}

}  // namespace

Result<bool> Supervision::record_outcome(const AttemptOutcome& out) {
  bool retry = !succeeded(out) && !out.stopped && !out.timed_out && !out.unknown_exit &&
               retries_left(task_) && !stop_requested().value_or(true);
  if (!retry) {
    if (auto r = record_completed(out); !r) return r.error();
    return false;
  }
  log(fmt::format("attempt {} failed ({}); retrying", task_.execution_info.retry_count,
                  failure_for(out).message));
  keep_attempt_logs(paths_, task_.execution_info.retry_count);
  auto r = store_.write(
      [&]() -> Result<void> {
        task_.execution_info.retry_count += 1;
        task_.execution_info.last_retry_time = clock_.now();
        task_.execution_info.exit_code = out.status.shell_code();
        return store_.upsert_task(task_);
      },
      Durability::Intent);
  if (!r) return r.error();
  return true;
}

Result<void> Supervision::record_completed(const AttemptOutcome& out) {
  auto now = clock_.now();
  bool ok = succeeded(out);
  auto r = store_.write(
      [&]() -> Result<void> {
        task_.previous_state = task_.state;
        task_.state = TaskState::Completed;
        task_.state_transition_time = task_.execution_info.end_time = now;
        if (!task_.execution_info.start_time) task_.execution_info.start_time = now;
        task_.execution_info.result = ok ? TaskResult::Success : TaskResult::Failure;
        task_.execution_info.exit_code.reset();
        if (!out.unknown_exit && (out.status.exit_code || out.status.signal))
          task_.execution_info.exit_code = out.status.shell_code();
        if (ok)
          task_.execution_info.failure_info.reset();
        else
          task_.execution_info.failure_info = failure_for(out);
        run_.supervisor_pid = 0;
        run_.supervisor_start = 0;
        if (auto u = store_.upsert_local_run(run_); !u) return u;
        return store_.upsert_task(task_);
      },
      Durability::Intent);
  // The submitter's environment (and any secrets passed with it) is needed only to start
  // attempts; it does not outlive the run.
  std::error_code ec;
  std::filesystem::remove(paths_.environment, ec);
  log(fmt::format("completed: {}", ok ? "success" : failure_for(out).message));
  return r;
}

}  // namespace trainyard
