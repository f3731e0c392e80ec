// Recording how an attempt ended: retry, success or failure.
#include <csignal>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "job_completion.hpp"
#include "run_outcome.hpp"
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

RunOutcome run_outcome(const AttemptOutcome& out, Timestamp now) {
  RunOutcome o;
  o.end_time = now;
  o.result = succeeded(out) ? TaskResult::Success : TaskResult::Failure;
  if (!out.unknown_exit && (out.status.exit_code || out.status.signal))
    o.exit_code = out.status.shell_code();
  if (!succeeded(out)) o.failure = failure_for(out);
  return o;
}

}  // namespace

Result<bool> Supervision::record_outcome(const AttemptOutcome& out) {
  bool retry = !succeeded(out) && !out.stopped && !out.timed_out && !out.unknown_exit &&
               retries_left(task_) && !stop_requested().value_or(true);
  if (!retry) {
    if (auto r = record_completed(out); !r) return r.error();
    return false;
  }
  log(fmt::format("attempt {} failed ({}); retrying", run_.attempt, failure_for(out).message));
  keep_attempt_logs(paths_, run_.attempt);
  Task task = task_;
  task.execution_info.retry_count += 1;
  task.execution_info.last_retry_time = clock_.now();
  task.execution_info.exit_code = out.status.shell_code();
  LocalRun run = run_;
  run.attempt += 1;
  auto r = write_until_stored([&]() -> Result<void> {
    TY_TRY(keep_stored_stop(run));
    TY_TRY(store_.upsert_local_run(run));
    return store_.upsert_task(task);
  });
  if (!r) return r.error();
  task_ = task;
  run_ = run;
  return true;
}

// The outcome goes to the run directory first: a supervisor that dies while the store is busy
// leaves it for the next scheduling pass to record (see LocalEngine::reconcile_locked).
Result<void> Supervision::record_completed(const AttemptOutcome& out) {
  // The submitter's environment (and any secrets passed with it) is needed only to start
  // attempts; it does not outlive the run.
  std::error_code ec;
  std::filesystem::remove(paths_.environment, ec);
  auto outcome = run_outcome(out, clock_.now());
  if (auto w = write_run_outcome(outcome_path(paths_.dir), outcome); !w) log(w.error().message);
  Task done = completed_with(task_, outcome);
  LocalRun run = run_;
  run.supervisor_pid = 0;
  run.supervisor_start = 0;
  auto r = write_until_stored([&]() -> Result<void> {
    if (auto u = store_.upsert_local_run(run); !u) return u;
    TY_TRY(store_.upsert_task(done));
    return end_job_after_task(store_, done, run.exit_conditions, clock_.now());
  });
  if (r) {
    task_ = done;
    run_ = run;
  }
  log(fmt::format("completed: {}", outcome.failure ? outcome.failure->message : "success"));
  return r;
}

}  // namespace trainyard
