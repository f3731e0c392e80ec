// `trainyard run --account A`: the command becomes a task of a job on a Batch account.
#include "cmd_run_batch.hpp"

#include <cstdio>
#include <random>

#include <fmt/format.h>

#include "action_util.hpp"
#include "app/cli.hpp"
#include "azure/batch_actions.hpp"
#include "local/process.hpp"
#include "output.hpp"
#include "sync/entity_refresh.hpp"

namespace trainyard {
namespace {

// Unique enough to never meet another run's id, and readable in a list.
std::string generated_id() {
  std::random_device rd;
  return fmt::format("run-{:08x}", rd());
}

Result<nlohmann::json> task_body(const RunBatchRequest& r) {
  // Batch runs a command line without a shell; `sh -c` gives it the meaning it has locally.
  nlohmann::json t{{"id", r.id.empty() ? generated_id() : r.id},
                   {"commandLine", "/bin/sh -c " + shell_quote({r.command_line})},
                   {"requiredSlots", r.gpus}};
  if (!r.name.empty()) t["displayName"] = r.name;
  nlohmann::json constraints{{"maxTaskRetryCount", r.retries}};
  if (r.max_wall) constraints["maxWallClockTime"] = format_iso_duration(*r.max_wall);
  t["constraints"] = constraints;
  std::vector<std::string> deps;
  for (const auto& a : r.after) {
    auto ref = split_task_ref(a);
    if (!ref) return ref.error();
    if (ref->first != r.job)
      return make_error(ErrorKind::Usage,
                        "--after " + a + ": a Batch task can only wait for tasks of its own job");
    deps.push_back(ref->second);
  }
  if (!deps.empty()) t["dependsOn"] = {{"taskIds", deps}};
  if (r.instances > 1 || !r.coordination.empty()) {
    // Batch requires a multi-instance task to take one slot per node.
    t["requiredSlots"] = 1;
    t["multiInstanceSettings"] = {{"numberOfInstances", r.instances}};
    if (!r.coordination.empty())
      t["multiInstanceSettings"]["coordinationCommandLine"] =
          "/bin/sh -c " + shell_quote({r.coordination});
  }
  return t;
}

// The job, created on `pool` when it does not exist yet (with dependencies on, for --after).
Result<void> ensure_job(ActionSession& s, const RunBatchRequest& r) {
  auto job = azure::get_job(*s.client, r.job);
  if (job) return {};
  if (job.error().kind != ErrorKind::NotFound) return job.error();
  if (r.pool.empty())
    return make_error(ErrorKind::Usage, fmt::format("job {} does not exist on account {}: give "
                                                    "--pool P to create it there",
                                                    r.job, s.account.name));
  nlohmann::json body{
      {"id", r.job}, {"poolInfo", {{"poolId", r.pool}}}, {"usesTaskDependencies", true}};
  TY_TRY(azure::create_job(*s.client, body));
  return cache_job(*s.ctx->store, *s.client, r.job);
}

}  // namespace

int run_on_batch(const CliState& st, const RunBatchRequest& r) {
  auto body = task_body(r);
  if (!body) return report(body.error());
  auto s = open_action(st, r.account, "run", ActionKind::Change);
  if (!s) return report(s.error());
  if (!r.upload.dir.empty()) {
    // Before the job: without a storage account nothing is created.
    auto inputs = prepare_task_inputs(s->ctx->settings, s->account, r.upload, r.job,
                                      upload_lifetime(r.max_wall), s->ctx->clock);
    if (!inputs) return report_failure("run --upload", inputs.error());
    out::eprint("trainyard: {}", inputs_line(*inputs));
    attach_task_inputs(*body, *inputs);
  }
  if (auto ok = ensure_job(*s, r); !ok) return report_failure("run", ok.error());
  const std::string id = (*body)["id"].get<std::string>();
  if (auto added = azure::add_tasks(*s->client, r.job, {*body}); !added)
    return report_failure("run", added.error());
  (void)cache_task(*s->ctx->store, *s->client, r.job, id);
  out::print("{}/{}", r.job, id);
  return kExitOk;
}

}  // namespace trainyard
