// Reading a task's logs to where they are now, or to their end once it completed.
#include "sync/task_log_backfill.hpp"

namespace trainyard {

namespace {

constexpr const char* kTaskLogs[] = {"stdout.txt", "stderr.txt"};

// One file: the last read of a completed task (no step limit), else steps while there is more.
Result<TailStep> read_whole(RemoteLogTail& tail, bool completed) {
  if (completed) return tail.finish();
  auto step = tail.step();
  while (step && step->more) step = tail.step();
  return step;
}

}  // namespace

Result<LogBackfill> read_task_logs(LogBackfillTarget& target, const std::string& job,
                                   const std::string& task, bool completed) {
  LogBackfill done;
  for (const char* file : kTaskLogs) {
    if (completed) {
      auto final = target.store.task_log_final(target.account, job, task, file);
      if (!final) return final.error();
      if (*final) continue;
    }
    RemoteFileRef ref{target.account, job, task, "", "", file};
    auto tail =
        RemoteLogTail::open(target.store, target.client, target.data_dir, ref, target.options);
    if (!tail) return tail.error();
    auto step = read_whole(*tail, completed);
    if (!step) return step.error();
    done.bytes += step->new_bytes;
    if (step->new_bytes) ++done.files;
  }
  if (done.files) done.tasks = 1;
  return done;
}

Result<LogBackfill> read_started_task_logs(LogBackfillTarget& target, const std::string& job,
                                           const std::string& task) {
  auto t = target.store.task(target.account, job, task);
  if (!t) return t.error();
  if (!*t || (*t)->state < TaskState::Running) return LogBackfill{};
  return read_task_logs(target, job, task, (*t)->state == TaskState::Completed);
}

Result<LogBackfill> read_unread_job_logs(LogBackfillTarget& target, const std::string& job) {
  auto unread = target.store.tasks_with_unread_logs(target.account, job, INT64_MAX);
  if (!unread) return unread.error();
  LogBackfill total;
  for (const auto& u : *unread) {
    auto one = read_task_logs(target, job, u.task, u.completed);
    if (!one) return one.error();
    total += *one;
  }
  return total;
}

}  // namespace trainyard
