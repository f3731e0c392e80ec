// Task actions: add, terminate, reactivate, delete.
#include <fmt/format.h>

#include "batch_action.hpp"
#include "sync/entity_refresh.hpp"

namespace trainyard::act {
namespace {

Result<void> refresh_task(ActionEnv& env, const std::string& job, const std::string& task) {
  auto r = cache_task(env.store, env.client, job, task);
  if (!r) return r.error();
  return {};
}

// Every task of the job, in one paged list (after adding many).
Result<void> refresh_tasks(ActionEnv& env, const std::string& job) {
  return cache_tasks(env.store, env.client, job);
}

using TaskRequest = Result<void> (*)(azure::BatchClient&, const std::string&, const std::string&);

BatchAction on_task(const char* verb, std::string job, std::string task, std::string done,
                    TaskRequest request) {
  return {fmt::format("{} task {}/{}", verb, job, task), ActionKind::Change,
          [job, task, line = std::move(done), call = request](ActionEnv& env) {
            return changed(
                call(env.client, job, task), [&] { return refresh_task(env, job, task); }, line,
                "task " + job + "/" + task);
          }};
}

}  // namespace

Result<void> check_task(const nlohmann::json& task) {
  TY_TRY(request_id(task, "task"));
  if (!task.value("commandLine", nlohmann::json()).is_string())
    return make_error(ErrorKind::Usage, "/commandLine: a command line is needed");
  return {};
}

BatchAction add_tasks(std::string job, std::vector<nlohmann::json> tasks) {
  return {"add tasks to job " + job, ActionKind::Change,
          [job, tasks](ActionEnv& env) -> Result<ActionOutcome> {
            auto added = azure::add_tasks(env.client, job, tasks);
            if (!added) return added.error();
            auto one = tasks.size() == 1 ? tasks.front().value("id", "") : std::string();
            return changed(
                {},
                [&] { return one.empty() ? refresh_tasks(env, job) : refresh_task(env, job, one); },
                fmt::format("added {} task(s) to job {}", added->added, job),
                "the tasks of job " + job);
          }};
}

BatchAction terminate_task(std::string job, std::string task) {
  auto done = fmt::format("terminated task {}/{}", job, task);
  return on_task("terminate", job, task, done, azure::terminate_task);
}

BatchAction reactivate_task(std::string job, std::string task) {
  auto done = fmt::format("reactivated task {}/{}: it runs again", job, task);
  return on_task("reactivate", job, task, done, azure::reactivate_task);
}

BatchAction delete_task(std::string job, std::string task) {
  return {fmt::format("delete task {}/{}", job, task), ActionKind::Change,
          [job, task](ActionEnv& env) {
            return changed(
                azure::delete_task(env.client, job, task),
                [&] { return env.store.delete_task(env.client.options().account, job, task); },
                fmt::format("deleted task {}/{}", job, task), "task " + job + "/" + task);
          }};
}

}  // namespace trainyard::act
