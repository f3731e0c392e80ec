// `trainyard wait`, `trainyard stop`, `trainyard rm`.
#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <thread>

#include <fmt/format.h>

#include "app/cli.hpp"
#include "app/context.hpp"
#include "cmd_wait_stop_batch.hpp"
#include "commands.hpp"
#include "local/task_environment.hpp"
#include "output.hpp"

namespace trainyard {
namespace {

using namespace std::chrono_literals;

struct RefOptions {
  std::string account, ref;
  std::vector<std::string> refs;
  int grace = -1;
  bool finished = false;
  std::string job;
};

// Polls the store until the task completes; repairs lost supervisors every few seconds.
Result<Task> wait_completed(AppContext& ctx, const std::string& job, const std::string& id) {
  LocalEngine engine(*ctx.store, ctx.engine, ctx.clock);
  for (int tick = 0;; ++tick) {
    auto t = ctx.store->task(kLocalAccount, job, id);
    if (!t) return t.error();
    if (!t->has_value())
      return make_error(ErrorKind::NotFound,
                        fmt::format("no task {}/{} in account local", job, id));
    if ((*t)->state == TaskState::Completed) return **t;
    if (tick % 20 == 19) (void)engine.schedule();
    std::this_thread::sleep_for(100ms);
  }
}

int wait_command(const CliState& st, const RefOptions& o) {
  if (auto a = check_account(o.account, st.data_dir); !a) return report(a.error());
  auto ref = split_task_ref(o.ref);
  if (!ref) return report(ref.error());
  if (is_batch_account(o.account)) return wait_batch(st, o.account, ref->first, ref->second);
  auto ctx = open_context(st.data_dir);
  if (!ctx) return report(ctx.error());
  auto t = wait_completed(**ctx, ref->first, ref->second);
  if (!t) return report(t.error());
  if (t->execution_info.exit_code) return *t->execution_info.exit_code;
  const auto& f = t->execution_info.failure_info;
  out::eprint("trainyard: {} has no exit code: {}", o.ref,
              f ? f->code + ": " + f->message : std::string("unknown"));
  return kExitFailure;
}

int stop_command(const CliState& st, const RefOptions& o) {
  if (auto a = check_account(o.account, st.data_dir); !a) return report(a.error());
  auto ref = split_task_ref(o.ref);
  if (!ref) return report(ref.error());
  if (is_batch_account(o.account)) return stop_batch(st, o.account, ref->first, ref->second);
  auto ctx = open_context(st.data_dir);
  if (!ctx) return report(ctx.error());
  LocalEngine engine(*(*ctx)->store, (*ctx)->engine, (*ctx)->clock);
  std::optional<std::chrono::seconds> grace;
  if (o.grace >= 0) grace = std::chrono::seconds(o.grace);
  if (auto r = engine.request_stop(ref->first, ref->second, grace); !r) return report(r.error());
  auto t = wait_completed(**ctx, ref->first, ref->second);
  if (!t) return report(t.error());
  out::print("{} stopped", o.ref);
  return kExitOk;
}

uint64_t disk_usage(const std::string& dir) {
  uint64_t total = 0;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file(ec)) total += it->file_size(ec);
  }
  return total;
}

Result<std::vector<std::pair<std::string, std::string>>> rm_targets(AppContext& ctx,
                                                                    const RefOptions& o) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& r : o.refs) {
    auto ref = split_task_ref(r);
    if (!ref) return ref.error();
    out.push_back(*ref);
  }
  if (o.finished || !o.job.empty()) {
    TaskQuery q;
    q.account = kLocalAccount;
    q.job = o.job;
    q.state = TaskState::Completed;
    auto tasks = ctx.store->tasks(q);
    if (!tasks) return tasks.error();
    for (const auto& t : *tasks) out.emplace_back(t.job_id, t.id);
  }
  if (out.empty())
    return make_error(ErrorKind::Usage, "rm: name JOB/TASK..., --job J or --finished");
  return out;
}

int rm_command(const CliState& st, const RefOptions& o) {
  if (auto a = check_account(o.account, st.data_dir); !a) return report(a.error());
  if (is_batch_account(o.account)) {
    if (o.finished || !o.job.empty())
      return report(make_error(ErrorKind::Usage,
                               "rm --account: name the Batch tasks (JOB/TASK...) to delete"));
    std::vector<std::pair<std::string, std::string>> tasks;
    for (const auto& r : o.refs) {
      auto ref = split_task_ref(r);
      if (!ref) return report(ref.error());
      tasks.push_back(*ref);
    }
    return rm_batch(st, o.account, tasks);
  }
  auto ctx = open_context(st.data_dir);
  if (!ctx) return report(ctx.error());
  auto targets = rm_targets(**ctx, o);
  if (!targets) return report(targets.error());
  LocalEngine engine(*(*ctx)->store, (*ctx)->engine, (*ctx)->clock);
  int rc = kExitOk;
  for (const auto& [job, task] : *targets) {
    auto bytes = disk_usage(run_paths((*ctx)->data_dir, job, task).dir);
    if (auto r = engine.remove(job, task); !r) {
      rc = report(r.error());
      continue;
    }
    out::print("removed {}/{} ({:.1f} MB)", job, task, static_cast<double>(bytes) / 1e6);
  }
  return rc;
}

}  // namespace

void register_wait(CLI::App& app, CliState& st) {
  auto o = std::make_shared<RefOptions>();
  auto* cmd =
      app.add_subcommand("wait", "Wait for JOB/TASK; exit with its exit code (128+N for signal N)");
  cmd->add_option("task", o->ref, "JOB/TASK")->required();
  cmd->add_option("--account", o->account, "Account");
  cmd->callback([&st, o] { st.action = [&st, o] { return wait_command(st, *o); }; });
}

void register_stop(CLI::App& app, CliState& st) {
  auto o = std::make_shared<RefOptions>();
  auto* cmd = app.add_subcommand(
      "stop", "Stop JOB/TASK: SIGTERM to its process group, SIGKILL after the grace period");
  cmd->add_option("task", o->ref, "JOB/TASK")->required();
  cmd->add_option("--account", o->account, "Account");
  cmd->add_option("--grace", o->grace, "Seconds between SIGTERM and SIGKILL (default 10)");
  cmd->callback([&st, o] { st.action = [&st, o] { return stop_command(st, *o); }; });
}

void register_rm(CLI::App& app, CliState& st) {
  auto o = std::make_shared<RefOptions>();
  auto* cmd = app.add_subcommand("rm", "Remove finished runs and their files");
  cmd->add_option("tasks", o->refs, "JOB/TASK ...");
  cmd->add_option("--account", o->account, "Account");
  cmd->add_option("--job", o->job, "Every finished task of this job");
  cmd->add_flag("--finished", o->finished, "Every finished local task");
  cmd->callback([&st, o] { st.action = [&st, o] { return rm_command(st, *o); }; });
}

}  // namespace trainyard
