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

Result<json> job_body(const JobFlags& f) {
  if (!f.json_file.empty() && (!f.id.empty() || !f.pool.empty()))
    return make_error(ErrorKind::Usage, "--json holds the whole job: drop --id and --pool");
  if (!f.json_file.empty()) return read_json_file(f.json_file);
  if (f.id.empty() || f.pool.empty())
    return make_error(ErrorKind::Usage, "job create needs --json FILE, or --id and --pool");
  return json{{"id", f.id}, {"poolInfo", {{"poolId", f.pool}}}};
}

int job_create(const CliState& st, const JobFlags& f) {
  // The body is checked before the account is opened: bad input sends nothing.
  auto body = job_body(f);
  if (!body) return report_failure("job create", body.error());
  const bool named = body->is_object() && body->contains("id") && (*body)["id"].is_string();
  const std::string job = named ? (*body)["id"].get<std::string>() : "";
  return run_action(
      st, f.account, {"job create", "create job " + job},
      [&](ActionSession& s) { return azure::create_job(*s.client, *body); },
      [&](ActionSession& s) {
        refresh_job(s, job);
        return print_done("created job " + job);
      });
}

// An action on one job whose success refreshes it.
int on_job(const CliState& st, const JobFlags& f, const char* command, const char* verb,
           const std::function<Result<void>(azure::BatchClient&)>& act) {
  return run_action(
      st, f.account, {command, fmt::format("{} job {}", verb, f.job)},
      [&](ActionSession& s) { return act(*s.client); },
      [&](ActionSession& s) {
        refresh_job(s, f.job);
        return print_done(fmt::format("{}: job {}", verb, f.job));
      });
}

int job_disable(const CliState& st, const JobFlags& f) {
  auto option = azure::parse_disable_job_option(f.tasks);
  if (!option) return report_failure("job disable", option.error());
  return on_job(st, f, "job disable", "disable",
                [&](azure::BatchClient& c) { return azure::disable_job(c, f.job, *option); });
}

int job_enable(const CliState& st, const JobFlags& f) {
  return on_job(st, f, "job enable", "enable",
                [&](azure::BatchClient& c) { return azure::enable_job(c, f.job); });
}

int job_terminate(const CliState& st, const JobFlags& f) {
  return on_job(st, f, "job terminate", "terminate",
                [&](azure::BatchClient& c) { return azure::terminate_job(c, f.job, f.reason); });
}

int job_delete(const CliState& st, const JobFlags& f) {
  return run_action(
      st, f.account, {"job delete", "delete job " + f.job},
      [&](ActionSession& s) { return azure::delete_job(*s.client, f.job); },
      [&](ActionSession& s) {
        forget_job(s, f.job);
        return print_done("deleting job " + f.job);
      });
}

using Runner = int (*)(const CliState&, const JobFlags&);

CLI::App* leaf(CLI::App* parent, CliState& st, const std::shared_ptr<JobFlags>& f, const char* name,
               const char* help, Runner run, bool takes_job = true) {
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
