#include "job_completion.hpp"

#include <signal.h>

#include <fmt/format.h>

#include "core/text.hpp"
#include "local/exit_conditions.hpp"
#include "local/process.hpp"

namespace trainyard {

namespace {

TaskEnd end_of(const Task& t) {
  const auto& e = t.execution_info;
  return {e.exit_code, e.result == TaskResult::Failure,
          e.failure_info ? e.failure_info->code : std::string()};
}

Result<bool> every_task_completed(Store& store, const std::string& job) {
  auto counts = store.task_counts(kLocalAccount, job);
  if (!counts) return counts.error();
  int64_t total = 0;
  for (const auto& [state, n] : *counts) total += n;
  auto done = counts->find(TaskState::Completed);
  return total > 0 && done != counts->end() && done->second == total;
}

// Its running tasks are stopped as `trainyard stop` stops one: the request is recorded, and
// SIGTERM tells each supervisor (which stops on it even before the request is committed).
Result<void> stop_running_tasks(Store& store, const std::string& job) {
  auto runs = store.local_runs();
  if (!runs) return runs.error();
  for (auto run : *runs) {
    if (run.job != job || run.supervisor_pid == 0 || run.stop_requested) continue;
    run.stop_requested = true;
    TY_TRY(store.upsert_local_run(run));
    const auto sup = static_cast<pid_t>(run.supervisor_pid);
    if (process_matches(sup, run.supervisor_start)) ::kill(sup, SIGTERM);
  }
  return ok_result();
}

Result<void> set_state(Store& store, Job j, JobState state, const char* reason, Timestamp now) {
  j.state = state;
  j.state_transition_time = now;
  if (state == JobState::Completed) j.terminate_reason = reason;
  return store.upsert_job(j);
}

}  // namespace

Result<void> end_job_after_task(Store& store, const Task& done, const std::string& exit_conditions,
                                Timestamp now) {
  auto stored = store.job(kLocalAccount, done.job_id);
  if (!stored) return stored.error();
  if (!*stored || (*stored)->state != JobState::Active) return ok_result();
  const Job& j = **stored;
  if (iequals(j.on_task_failure, "performexitoptionsjobaction")) {
    switch (exit_job_action(exit_conditions, end_of(done))) {
      case ExitJobAction::Terminate:
        TY_TRY(stop_running_tasks(store, j.id));
        return set_state(store, j, JobState::Completed, "TaskFailed", now);
      case ExitJobAction::Disable:
        return set_state(store, j, JobState::Disabled, "", now);
      case ExitJobAction::None:
        break;
    }
  }
  if (!iequals(j.on_all_tasks_complete, "terminatejob")) return ok_result();
  auto all = every_task_completed(store, j.id);
  if (!all) return all.error();
  return *all ? set_state(store, j, JobState::Completed, "AllTasksComplete", now) : ok_result();
}

Result<void> refuse_if_completed(const std::optional<Job>& job, const char* what) {
  if (!job || job->state != JobState::Completed) return ok_result();
  const std::string why = job->terminate_reason == "TaskFailed"
                              ? "a task's failure ended it (onTaskFailure)"
                              : "its onAllTasksComplete is " + job->on_all_tasks_complete;
  return make_error(ErrorKind::Conflict,
                    fmt::format("{}: job {} has completed ({}): it takes no more tasks; use "
                                "another job id",
                                what, job->id, why));
}

Result<void> refuse_if_job_completed(Store& store, const std::string& job, const char* what) {
  auto stored = store.job(kLocalAccount, job);
  if (!stored) return stored.error();
  return refuse_if_completed(*stored, what);
}

}  // namespace trainyard
