// `trainyard job create|disable|enable|terminate|delete --account A …`: Batch job actions.
#include <memory>

#include <fmt/format.h>

#include "action_util.hpp"
#include "app/cli.hpp"
#include "azure/batch_actions.hpp"
#include "commands.hpp"

namespace trainyard {
namespace {

using nlohmann::json;

struct JobFlags {
  std::string account, job, json_file, id, pool, tasks = "requeue", reason;
};

Result<json> job_from_file(const std::string& path) {
  auto body = read_json_file(path);
  if (!body) return body.error();
  if (auto id = act::request_id(*body, "job"); !id)
    return make_error(ErrorKind::Usage, path + ": " + id.error().message);
  return body;
}

Result<json> job_body(const JobFlags& f) {
  if (!f.json_file.empty() && (!f.id.empty() || !f.pool.empty()))
    return make_error(ErrorKind::Usage, "--json holds the whole job: drop --id and --pool");
  if (!f.json_file.empty()) return job_from_file(f.json_file);
  if (f.id.empty() || f.pool.empty())
    return make_error(ErrorKind::Usage, "job create needs --json FILE, or --id and --pool");
  return json{{"id", f.id}, {"poolInfo", {{"poolId", f.pool}}}};
}

int job_create(const CliState& st, const JobFlags& f) {
  // The body is checked before the account is opened: bad input sends nothing.
  auto body = job_body(f);
  if (!body) return report_failure("job create", body.error());
  return run_catalogued(st, f.account, "job create", act::create_job(*body));
}

int job_disable(const CliState& st, const JobFlags& f) {
  auto option = azure::parse_disable_job_option(f.tasks);
  if (!option) return report_failure("job disable", option.error());
  return run_catalogued(st, f.account, "job disable", act::disable_job(f.job, *option));
}

int job_enable(const CliState& st, const JobFlags& f) {
  return run_catalogued(st, f.account, "job enable", act::enable_job(f.job));
}

int job_terminate(const CliState& st, const JobFlags& f) {
  return run_catalogued(st, f.account, "job terminate", act::terminate_job(f.job, f.reason));
}

int job_delete(const CliState& st, const JobFlags& f) {
  return run_catalogued(st, f.account, "job delete", act::delete_job(f.job));
}

CLI::App* leaf(CLI::App* parent, CliState& st, const std::shared_ptr<JobFlags>& f, const char* name,
               const char* help, FlagsRunner<JobFlags> run, bool takes_job = true) {
  auto* cmd = parent->add_subcommand(name, help);
  add_account_option(cmd, f->account);
  if (takes_job) cmd->add_option("job", f->job, "Job id")->required();
  cmd->callback([&st, f, run] { st.action = [&st, f, run] { return run(st, *f); }; });
  return cmd;
}

}  // namespace

void register_job(CLI::App& app, CliState& st) {
  auto f = std::make_shared<JobFlags>();
  auto* job = app.add_subcommand("job", "Batch jobs: create, disable, enable, terminate, delete");
  job->require_subcommand(1);
  auto* create = leaf(job, st, f, "create", "Create a job (--json FILE, or --id and --pool)",
                      job_create, false);
  create->add_option("--json", f->json_file, "The job as Batch REST JSON (wire names)");
  create->add_option("--id", f->id, "Job id");
  create->add_option("--pool", f->pool, "Pool the job's tasks run on");
  auto* disable = leaf(job, st, f, "disable", "Stop starting the job's tasks", job_disable);
  disable->add_option("--tasks", f->tasks, "Running tasks: requeue (default), terminate, wait");
  leaf(job, st, f, "enable", "Start the job's tasks again", job_enable);
  auto* terminate =
      leaf(job, st, f, "terminate", "End the job and its running tasks", job_terminate);
  terminate->add_option("--reason", f->reason, "terminateReason (default UserTerminate)");
  leaf(job, st, f, "delete", "Delete the job, its tasks and their files", job_delete);
}

}  // namespace trainyard
