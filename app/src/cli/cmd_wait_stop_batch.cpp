// `wait`, `stop` and `rm` on a Batch account: the same contracts as for local runs, through the
// service (the task's exit code; terminate and wait; delete).
#include "cmd_wait_stop_batch.hpp"

#include <cstdio>
#include <thread>

#include <fmt/format.h>

#include "action_util.hpp"
#include "app/cli.hpp"
#include "azure/batch_actions.hpp"
#include "output.hpp"
#include "sync/entity_refresh.hpp"

namespace trainyard {
namespace {

using namespace std::chrono_literals;

// Asks the service every 2 s (each answer also refreshes the cache) until the task completes.
Result<Task> wait_batch_task(ActionSession& s, const std::string& job, const std::string& id) {
  for (;;) {
    auto t = cache_task(*s.ctx->store, *s.client, job, id);
    if (!t) return t.error();
    if (!*t)
      return make_error(ErrorKind::NotFound,
                        fmt::format("no task {}/{} in account {}", job, id, s.account.name));
    if ((*t)->state == TaskState::Completed) return **t;
    std::this_thread::sleep_for(2s);
  }
}

int exit_status(const std::string& ref, const Task& t) {
  if (t.execution_info.exit_code) return *t.execution_info.exit_code;
  const auto& f = t.execution_info.failure_info;
  out::eprint("trainyard: {} has no exit code: {}", ref,
              f ? f->code + ": " + f->message : std::string("unknown"));
  return kExitFailure;
}

}  // namespace

bool is_batch_account(const std::string& account) {
  return !account.empty() && account != kLocalAccount;
}

int wait_batch(const CliState& st, const std::string& account, const std::string& job,
               const std::string& task) {
  auto s = open_action(st, account, "wait", ActionKind::Read);
  if (!s) return report(s.error());
  auto t = wait_batch_task(*s, job, task);
  if (!t) return report_failure("wait " + job + "/" + task, t.error());
  return exit_status(job + "/" + task, *t);
}

int stop_batch(const CliState& st, const std::string& account, const std::string& job,
               const std::string& task) {
  auto s = open_action(st, account, "stop", ActionKind::Change);
  if (!s) return report(s.error());
  if (auto r = run_in_session(*s, act::terminate_task(job, task)); !r)
    return report_failure("stop " + job + "/" + task, r.error());
  auto t = wait_batch_task(*s, job, task);
  if (!t) return report_failure("stop " + job + "/" + task, t.error());
  return print_done(job + "/" + task + " stopped");
}

int rm_batch(const CliState& st, const std::string& account,
             const std::vector<std::pair<std::string, std::string>>& tasks) {
  auto s = open_action(st, account, "rm", ActionKind::Change);
  if (!s) return report(s.error());
  int rc = kExitOk;
  for (const auto& [job, task] : tasks) {
    // rm's line, as for local runs, rather than the action's own.
    ActionEnv env{*s->client, *s->ctx->store, s->ctx->clock};
    auto r = act::delete_task(job, task).run(env);
    if (!r) {
      rc = report_failure("rm " + job + "/" + task, r.error());
      continue;
    }
    out::print("removed {}/{}", job, task);
    for (const auto& w : r->warnings) out::eprint("trainyard: warning: {}", w);
  }
  return rc;
}

}  // namespace trainyard
