// Retrying a finished local run: the same task queued again as its next attempt.
#include <filesystem>

#include <fmt/format.h>

#include "job_completion.hpp"
#include "local/engine.hpp"
#include "local/task_environment.hpp"
#include "run_files.hpp"
#include "run_outcome.hpp"

namespace trainyard {
namespace {

Error not_retryable(const Task& t) {
  return make_error(ErrorKind::Conflict,
                    fmt::format("task {}/{} is {}: only a finished run can be retried", t.job_id,
                                t.id, to_wire(t.state)));
}

// Batch's reactivate: queued again, with a fresh execution record (retries start over).
Task requeued(Task t, Timestamp now) {
  t.previous_state = t.state;
  t.state = TaskState::Active;
  t.state_transition_time = now;
  const int requeues = t.execution_info.requeue_count;
  t.execution_info = ExecutionInfo{};
  t.execution_info.requeue_count = requeues;
  t.node_info.reset();
  return t;
}

// The run record of the next attempt: its GPUs picked again unless the run was pinned.
LocalRun next_attempt(LocalRun run, int grace_seconds) {
  run.attempt += 1;
  run.gpu_ids = run.pinned_gpu_ids;
  run.supervisor_pid = run.supervisor_start = 0;
  run.pid = run.pgid = run.start_ticks = 0;
  run.stop_requested = false;
  run.grace_seconds = grace_seconds;
  run.waiting_reason.clear();
  return run;
}

// Puts the kept logs of `attempt` back (the reactivation that moved them was not stored).
void restore_attempt_logs(const RunPaths& paths, int attempt) {
  for (const auto& [to, stem] :
       {std::pair{paths.stdout_txt, "stdout"}, {paths.stderr_txt, "stderr"}}) {
    std::error_code ec;
    auto from = fmt::format("{}/{}.attempt-{}.txt", paths.dir, stem, attempt);
    if (!std::filesystem::exists(to, ec)) std::filesystem::rename(from, to, ec);
  }
}

}  // namespace

Result<int> LocalEngine::reactivate(const std::string& job, const std::string& task,
                                    const std::vector<std::string>& environment) {
  const auto paths = run_paths(config_.data_dir, job, task);
  std::optional<int> moved;  // the attempt whose logs were moved aside
  int attempt = 0;
  auto r = store_.write(
      [&]() -> Result<void> {
        auto t = store_.task(kLocalAccount, job, task);
        if (!t) return t.error();
        if (!t->has_value())
          return make_error(ErrorKind::NotFound,
                            fmt::format("no task {}/{} in account local", job, task));
        if ((*t)->state != TaskState::Completed) return not_retryable(**t);
        TY_TRY(refuse_if_job_completed(store_, job, "retry"));
        auto run = store_.local_run(job, task);
        if (!run) return run.error();
        if (!run->has_value() || !std::filesystem::exists(paths.command))
          return make_error(ErrorKind::NotFound,
                            fmt::format("task {}/{} cannot be retried: its run record or {} is "
                                        "gone",
                                        job, task, paths.command));
        LocalRun next = next_attempt(**run, static_cast<int>(config_.default_grace.count()));
        TY_TRY(store_.upsert_local_run(next));
        TY_TRY(store_.upsert_task(requeued(**t, clock_.now())));
        // The new attempt's output is read for metrics from its start.
        for (const char* file : {"stdout.txt", "stderr.txt"})
          TY_TRY(store_.set_log_offset(kLocalAccount, job, task, file, 0));
        // Files last, under the write lock: no scheduling pass can start the new attempt before
        // its environment is written and the finished attempt's logs are moved aside.
        TY_TRY(write_file_atomic(paths.environment,
                                 environment_blob(environment, config_.secret_variables), 0600));
        std::error_code ec;
        std::filesystem::remove(outcome_path(paths.dir), ec);
        keep_attempt_logs(paths, (*run)->attempt);
        moved = (*run)->attempt;
        attempt = next.attempt;
        return ok_result();
      },
      Durability::Intent);
  if (!r) {
    if (moved) {
      std::error_code ec;
      std::filesystem::remove(paths.environment, ec);
      restore_attempt_logs(paths, *moved);
    }
    return r.error();
  }
  // The retry is stored: a pass that fails now is repeated by the next one (any trainyard).
  (void)schedule();
  return attempt;
}

}  // namespace trainyard
