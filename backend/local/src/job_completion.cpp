#include "job_completion.hpp"

#include <fmt/format.h>

namespace trainyard {

Result<void> complete_job_when_done(Store& store, const std::string& job, Timestamp now) {
  auto stored = store.job(kLocalAccount, job);
  if (!stored) return stored.error();
  if (!*stored) return ok_result();
  Job j = std::move(**stored);
  if (j.state != JobState::Active || j.on_all_tasks_complete != "terminatejob") return ok_result();
  auto counts = store.task_counts(kLocalAccount, job);
  if (!counts) return counts.error();
  int64_t total = 0;
  for (const auto& [state, n] : *counts) total += n;
  auto done = counts->find(TaskState::Completed);
  if (total == 0 || done == counts->end() || done->second != total) return ok_result();
  j.state = JobState::Completed;
  j.state_transition_time = now;
  return store.upsert_job(j);
}

Result<void> refuse_if_completed(const std::optional<Job>& job, const char* what) {
  if (!job || job->state != JobState::Completed) return ok_result();
  return make_error(ErrorKind::Conflict,
                    fmt::format("{}: job {} has completed (its onAllTasksComplete is {}): it takes "
                                "no more tasks; use another job id",
                                what, job->id, job->on_all_tasks_complete));
}

Result<void> refuse_if_job_completed(Store& store, const std::string& job, const char* what) {
  auto stored = store.job(kLocalAccount, job);
  if (!stored) return stored.error();
  return refuse_if_completed(*stored, what);
}

}  // namespace trainyard
