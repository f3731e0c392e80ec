#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "instance_groups.hpp"
#include "local/engine.hpp"
#include "local/process.hpp"
#include "local/task_environment.hpp"

namespace trainyard {
namespace {

Error not_found(const std::string& job, const std::string& task) {
  return make_error(ErrorKind::NotFound, fmt::format("no task {}/{} in account local", job, task));
}

// As Batch answers a terminate of a completed task (409 TaskCompleted): nothing was stopped.
Error already_finished(const Task& t) {
  const auto& e = t.execution_info;
  std::string how = e.exit_code      ? fmt::format("exit code {}", *e.exit_code)
                    : e.failure_info ? e.failure_info->code
                                     : std::string("no exit code");
  return make_error(ErrorKind::Conflict, fmt::format("task {}/{} had already finished ({}): "
                                                     "nothing to stop",
                                                     t.job_id, t.id, how));
}

}  // namespace

Result<void> LocalEngine::request_stop(const std::string& job, const std::string& task,
                                       std::optional<std::chrono::seconds> grace) {
  std::optional<LocalRun> running;
  ended_runs_.clear();
  auto r = store_.write(
      [&]() -> Result<void> {
        auto t = store_.task(kLocalAccount, job, task);
        if (!t) return t.error();
        if (!t->has_value()) return not_found(job, task);
        if ((*t)->state == TaskState::Completed) return already_finished(**t);
        if ((*t)->state == TaskState::Active)
          return fail_locked(**t, "TaskTerminated", "stopped by the user before it started");
        auto run = store_.local_run(job, task);
        if (!run) return run.error();
        if (!run->has_value()) return fail_locked(**t, "TaskTerminated", "stopped by the user");
        (*run)->stop_requested = true;
        (*run)->grace_seconds = static_cast<int>(grace.value_or(config_.default_grace).count());
        running = **run;
        return store_.upsert_local_run(**run);
      },
      Durability::Intent);
  discard_ended_environments(r.ok());
  if (!r || !running) return r;
  auto sup = static_cast<pid_t>(running->supervisor_pid);
  if (process_matches(sup, running->supervisor_start) && kill(sup, SIGTERM) == 0)
    return ok_result();
  // No supervisor to do it: end the group here and record the stop.
  // Ending the groups waits out the grace period: no write transaction is open meanwhile.
  if (running->pgid > 0 && process_matches(static_cast<pid_t>(running->pid), running->start_ticks))
    terminate_group(static_cast<pid_t>(running->pgid),
                    std::chrono::seconds(running->grace_seconds));
  end_orphaned_groups(*running);
  auto ended = store_.write(
      [&]() -> Result<void> {
        TY_TRY(record_orphaned_subtasks(store_, *running, clock_.now(), "stopped by the user"));
        auto t = store_.task(kLocalAccount, job, task);
        if (!t) return t.error();
        if (!t->has_value() || (*t)->state == TaskState::Completed) return ok_result();
        return fail_locked(**t, "TaskTerminated", "stopped by the user (its supervisor had ended)");
      },
      Durability::Intent);
  discard_ended_environments(ended.ok());
  return ended;
}

Result<void> LocalEngine::remove(const std::string& job, const std::string& task) {
  auto t = store_.task(kLocalAccount, job, task);
  if (!t) return t.error();
  if (!t->has_value()) return not_found(job, task);
  if ((*t)->state != TaskState::Completed)
    return make_error(ErrorKind::Conflict, fmt::format("task {}/{} is {}: stop it first", job, task,
                                                       to_wire((*t)->state)));
  auto r = store_.write(
      [&]() -> Result<void> {
        // Remembered, so that submitting the job's spec again does not queue it again.
        auto params = store_.task_parameters(kLocalAccount, job, task);
        if (!params) return params.error();
        RemovedRun gone{task, (*t)->command_line, std::move(*params)};
        TY_TRY(store_.remember_removed_run(kLocalAccount, job, gone, clock_.now()));
        if (auto d = store_.delete_local_run(job, task); !d) return d;
        return store_.delete_task(kLocalAccount, job, task);
      },
      Durability::Intent);
  if (!r) return r;
  std::error_code ec;
  std::filesystem::remove_all(run_paths(config_.data_dir, job, task).dir, ec);
  if (ec)
    return make_error(ErrorKind::Io,
                      fmt::format("removing files of {}/{}: {}", job, task, ec.message()));
  return ok_result();
}

Result<void> LocalEngine::remove_job(const std::string& job) {
  auto r = store_.write(
      [&]() -> Result<void> {
        auto j = store_.job(kLocalAccount, job);
        if (!j) return j.error();
        if (!j->has_value())
          return make_error(ErrorKind::NotFound, fmt::format("no job {} in account local", job));
        auto ids = store_.task_ids(kLocalAccount, job);
        if (!ids) return ids.error();
        if (!ids->empty())
          return make_error(ErrorKind::Conflict,
                            fmt::format("job {} still has {} run{}: remove them first (rm --job "
                                        "{})",
                                        job, ids->size(), ids->size() == 1 ? "" : "s", job));
        return store_.delete_job(kLocalAccount, job);
      },
      Durability::Intent);
  if (!r) return r;
  std::error_code ec;
  std::filesystem::remove_all(fmt::format("{}/runs/{}", config_.data_dir, job), ec);
  if (ec)
    return make_error(ErrorKind::Io,
                      fmt::format("removing files of job {}: {}", job, ec.message()));
  return ok_result();
}

void LocalEngine::reap_children() {
  children_.erase(std::remove_if(children_.begin(), children_.end(),
                                 [](pid_t pid) {
                                   int status = 0;
                                   return waitpid(pid, &status, WNOHANG) != 0;
                                 }),
                  children_.end());
}

}  // namespace trainyard
