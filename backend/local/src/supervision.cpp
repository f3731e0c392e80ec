#include "supervision.hpp"

#include "gpu_id_list.hpp"
#include "local/busy_retry.hpp"
#include "run_outcome.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <fmt/format.h>

namespace trainyard {
namespace {

using SteadyClock = std::chrono::steady_clock;

std::string trim_newline(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

}  // namespace

void reap_any_children() {
  int status = 0;
  while (waitpid(-1, &status, WNOHANG) > 0) {
  }
}

Supervision::Supervision(Store& store, const EngineConfig& config, const Clock& clock,
                         SupervisorArgs args, SupervisorHooks hooks)
    : store_(store),
      config_(config),
      clock_(clock),
      args_(std::move(args)),
      hooks_(std::move(hooks)),
      paths_(run_paths(config.data_dir, args_.job, args_.task)) {}

void Supervision::log(const std::string& line) {
  std::ofstream out(paths_.supervisor_log, std::ios::app);
  out << format_iso8601(clock_.now()) << " [" << getpid() << "] " << line << "\n";
}

Result<void> Supervision::write_until_stored(const std::function<Result<void>()>& fn) {
  return trainyard::write_until_stored(
      [&] { return store_.write(fn, Durability::Intent); },
      [&](const Error& e, std::chrono::milliseconds delay) {
        log(fmt::format("{}; trying again in {} ms", e.message, delay.count()));
      });
}

Result<bool> Supervision::claim() {
  bool mine = false;
  auto r = write_until_stored([&]() -> Result<void> {
    auto t = store_.task(kLocalAccount, args_.job, args_.task);
    if (!t) return t.error();
    auto run = store_.local_run(args_.job, args_.task);
    if (!run) return run.error();
    if (!t->has_value() || !run->has_value()) return ok_result();
    task_ = **t;
    run_ = **run;
    instance_groups_ = parse_instance_groups(run_.instance_groups);
    auto subs = store_.subtasks(kLocalAccount, args_.job, args_.task);
    if (!subs) return subs.error();
    subtasks_ = std::move(*subs);
    mine = run_.supervisor_pid == getpid() && task_.state != TaskState::Completed;
    return ok_result();
  });
  if (!r) return r.error();
  return mine;
}

int Supervision::run() {
  auto mine = claim();
  if (!mine || !*mine) return mine ? 0 : 1;
  if (!args_.adopt) {
    std::error_code ec;  // an outcome left by an earlier run of this id is not this run's
    std::filesystem::remove(outcome_path(paths_.dir), ec);
  }
  if (task_.constraints.max_wall_clock_time)
    wall_deadline_ = SteadyClock::now() + *task_.constraints.max_wall_clock_time;
  if (args_.adopt) {
    log(fmt::format("re-attached to pid {}", run_.pid));
    return record_completed(watch_adopted()) ? 0 : 1;
  }
  for (;;) {
    auto stop = stop_requested();
    if (stop && *stop) return record_completed(AttemptOutcome{{}, true}) ? 0 : 1;
    auto outcome = run_attempt();
    if (!outcome) {
      log(outcome.error().message);
      AttemptOutcome failed;
      failed.status.exit_code = 127;
      return record_completed(failed) ? 0 : 1;
    }
    auto again = record_outcome(*outcome);
    if (!again) log(again.error().message);
    if (!again || !*again) return again ? 0 : 1;
  }
}

Result<AttemptOutcome> Supervision::run_attempt() {
  if (auto stopped = await_gpus()) return *stopped;
  if (auto made = make_node_dirs(node_dirs(config_.data_dir)); !made) return made.error();
  if (task_.multi_instance) {
    auto coordinated = run_coordination();
    if (!coordinated || coordinated->has_value()) {
      AttemptOutcome out = coordinated ? **coordinated : AttemptOutcome{};
      end_instances(out);
      if (!coordinated) return coordinated.error();
      return out;
    }
  }
  auto child = start_attempt();
  if (!child) {
    end_instances(AttemptOutcome{});
    return child.error();
  }
  auto out = wait_attempt(*child);
  end_instances(out);
  return out;
}

Result<ChildInfo> Supervision::start_attempt() {
  auto command = read_small_file(paths_.command);
  if (!command) return command.error();
  auto env_blob = read_small_file(paths_.environment);
  if (!env_blob) return env_blob.error();
  // The primary's command sees every GPU of the run, in instance order, so a launcher that
  // starts one process per instance on this machine finds instance i's GPU at local rank i.
  auto in = instance_environment(0, *env_blob);
  in.gpu_uuids = uuids_of(parse_gpu_ids(run_.gpu_ids));
  ChildSpec spec{trim_newline(*command), build_task_environment(in), in.working_dir,
                 paths_.stdout_txt, paths_.stderr_txt};
  auto child = spawn_task_process(spec);
  if (!child) return child.error();
  if (auto r = record_running(*child); !r) {
    terminate_group(child->pgid, std::chrono::seconds(1), reap_any_children);
    return r.error();
  }
  log(fmt::format("attempt {} started: pid {}", run_.attempt, child->pid));
  return child;
}

Result<void> Supervision::record_running(const ChildInfo& child) {
  LocalRun run = run_;
  run.pid = child.pid;
  run.pgid = child.pgid;
  run.start_ticks = child.start_ticks;
  Task task = task_;
  task.previous_state = task.state;
  task.state = TaskState::Running;
  task.state_transition_time = clock_.now();
  if (!task.multi_instance) task.execution_info.start_time = task.state_transition_time;
  task.execution_info.end_time.reset();
  run.waiting_reason.clear();
  auto r = write_until_stored([&]() -> Result<void> {
    TY_TRY(keep_stored_stop(run));
    if (auto u = store_.upsert_local_run(run); !u) return u;
    return store_.upsert_task(task);
  });
  if (!r) return r;
  run_ = run;
  task_ = task;
  return ok_result();
}

Result<void> Supervision::keep_stored_stop(LocalRun& run) {
  auto stored = store_.local_run(args_.job, args_.task);
  if (!stored) return stored.error();
  if (stored->has_value()) {
    run.stop_requested = (*stored)->stop_requested;
    run.grace_seconds = (*stored)->grace_seconds;
  }
  return ok_result();
}

Result<bool> Supervision::stop_requested() {
  auto run = store_.local_run(args_.job, args_.task);
  if (!run) return run.error();
  if (!run->has_value()) return true;
  run_.stop_requested = (*run)->stop_requested;
  run_.grace_seconds = (*run)->grace_seconds;
  return run_.stop_requested;
}

}  // namespace trainyard
