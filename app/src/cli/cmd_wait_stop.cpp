// `trainyard wait`, `trainyard stop`.
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
#include "local_action.hpp"
#include "output.hpp"

namespace trainyard {
namespace {

using namespace std::chrono_literals;

struct RefOptions {
  std::string account, ref;
  int grace = -1;
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
  auto stopping = act::stop_run(ref->first, ref->second, grace).run(engine);
  if (!stopping) return report(stopping.error());
  out::line(stdout, *stopping);
  auto t = wait_completed(**ctx, ref->first, ref->second);
  if (!t) return report(t.error());
  out::print("{} stopped", o.ref);
  return kExitOk;
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

}  // namespace trainyard
