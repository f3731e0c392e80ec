// Job actions: create, terminate, delete, enable, disable.
#include <fmt/format.h>

#include "batch_action.hpp"
#include "sync/entity_refresh.hpp"

namespace trainyard::act {
namespace {

std::string tasks_fate(azure::DisableJobOption o) {
  switch (o) {
    case azure::DisableJobOption::Requeue:
      return "running tasks requeued";
    case azure::DisableJobOption::Terminate:
      return "running tasks terminated";
    case azure::DisableJobOption::Wait:
      return "running tasks finish first";
  }
  return "";
}

// An action on one job whose success refreshes it.
BatchAction on_job(std::string what, const std::string& job, std::string done,
                   std::function<Result<void>(azure::BatchClient&)> request) {
  return {std::move(what), ActionKind::Change,
          [job, line = std::move(done), call = std::move(request)](ActionEnv& env) {
            return changed(
                call(env.client), [&] { return cache_job(env.store, env.client, job); }, line,
                "job " + job);
          }};
}

}  // namespace

BatchAction create_job(nlohmann::json body) {
  const std::string job = body.is_object() ? body.value("id", "") : "";
  return on_job("create job " + job, job, "created job " + job,
                [body](azure::BatchClient& c) { return azure::create_job(c, body); });
}

BatchAction terminate_job(std::string job, std::string reason) {
  return on_job(
      "terminate job " + job, job, "terminating job " + job,
      [job, reason](azure::BatchClient& c) { return azure::terminate_job(c, job, reason); });
}

BatchAction delete_job(std::string job) {
  return {"delete job " + job, ActionKind::Change, [job](ActionEnv& env) {
            // The job stays a while as `deleting`: the cache forgets it now, as `ls` expects.
            return changed(
                azure::delete_job(env.client, job),
                [&] { return env.store.delete_job(env.client.options().account, job); },
                "deleting job " + job, "job " + job);
          }};
}

BatchAction enable_job(std::string job) {
  return on_job("enable job " + job, job, "enabled job " + job,
                [job](azure::BatchClient& c) { return azure::enable_job(c, job); });
}

BatchAction disable_job(std::string job, azure::DisableJobOption option) {
  return on_job(
      "disable job " + job, job, fmt::format("disabled job {} ({})", job, tasks_fate(option)),
      [job, option](azure::BatchClient& c) { return azure::disable_job(c, job, option); });
}

// The job's state comes from the service, on the worker: what the cache says may be old.
BatchAction toggle_job(std::string job) {
  return {"enable or disable job " + job, ActionKind::Change,
          [job](ActionEnv& env) -> Result<ActionOutcome> {
            auto j = azure::get_job(env.client, job);
            if (!j) return j.error();
            bool disabled = j->state == JobState::Disabled || j->state == JobState::Disabling;
            return (disabled ? enable_job(job) : disable_job(job)).run(env);
          }};
}

}  // namespace trainyard::act
