// `trainyard submit FILE`: Batch JSON, Batch AI job.json or Shipyard jobs.yaml, locally or to a
// Batch account.
#include <filesystem>

#include <fmt/format.h>

#include "action_util.hpp"
#include "app/cli.hpp"
#include "app/context.hpp"
#include "cmd_submit_batch.hpp"
#include "commands.hpp"
#include "local/task_environment.hpp"
#include "output.hpp"
#include "spec/load.hpp"
#include "spec_to_local.hpp"
#include "submit_checks.hpp"
#include "submit_existing.hpp"

namespace trainyard {
namespace {

struct SubmitOptions {
  std::string file, account, pool, job_id, mount_root;
  int pool_nodes = 0;
  bool dry_run = false, json = false, no_container = false, rerun_removed = false;
  UploadFlags upload;
};

bool is_local(const SubmitOptions& o) {
  return o.account.empty() || o.account == kLocalAccount;
}

spec::LoadOptions load_options(const CliState& st, const SubmitOptions& o) {
  spec::LoadOptions l =
      is_local(o) ? local_load_options(resolve_data_dir(st.data_dir)) : spec::LoadOptions{};
  if (!o.job_id.empty()) l.job_id = o.job_id;
  if (!o.pool.empty()) l.pool_id = o.pool;
  if (!o.mount_root.empty()) l.mount_root = o.mount_root;
  if (o.pool_nodes > 0) l.pool_node_count = o.pool_nodes;
  return l;
}

void print_summary(const spec::JobSpec& s) {
  out::print("job {}: {} task(s)", s.job.id, s.tasks.size());
  for (size_t i = 0; i < s.tasks.size() && i < 5; ++i)
    out::print("  {}  {}", s.tasks[i].id, s.tasks[i].commandLine);
  if (s.tasks.size() > 5) out::print("  … {} more", s.tasks.size() - 5);
  for (const auto& u : s.unmapped) out::print("  not mapped: {}: {}", u.place, u.what);
}

// What will fail for real: checked here (local) or with one GET per job (Batch).
Result<std::vector<std::string>> dry_run_warnings(const CliState& st, const SubmitOptions& o,
                                                  const std::vector<spec::JobSpec>& specs) {
  std::vector<std::string> out;
  if (is_local(o)) {
    auto containers = choose_containers(specs, o.no_container);
    for (const auto& s : specs)
      for (auto& w : local_warnings(s, containers)) out.push_back(std::move(w));
    return out;
  }
  auto session = open_action(st, o.account, "submit", ActionKind::Read);
  if (!session) return session.error();
  for (const auto& s : specs)
    for (auto& w : batch_warnings(*session->client, session->account.name, s))
      out.push_back(std::move(w));
  return out;
}

int dry_run(const CliState& st, const SubmitOptions& o, const std::vector<spec::JobSpec>& specs) {
  for (const auto& s : specs) {
    if (o.json)
      out::json_text(spec::to_wire_json(s));
    else
      print_summary(s);
  }
  auto warnings = dry_run_warnings(st, o, specs);
  if (!warnings) return report(warnings.error());
  for (const auto& w : *warnings) out::eprint("trainyard: warning: {}", w);
  return kExitOk;
}

// Every job is checked before anything is recorded, so a bad task creates nothing.
Result<std::vector<std::vector<SubmitRequest>>> all_requests(
    const std::vector<spec::JobSpec>& specs, const std::string& cwd,
    const ContainerChoice& containers) {
  std::vector<std::vector<SubmitRequest>> out;
  for (const auto& s : specs) {
    auto reqs = local_requests(s, cwd, current_environment(), containers);
    if (!reqs) return reqs.error();
    out.push_back(std::move(*reqs));
  }
  return out;
}

// `, 3 already there, 13 removed earlier, not queued again (--rerun-removed)`.
std::string already_note(const LocalPlan& plan) {
  std::string note = plan.already ? fmt::format(", {} already there", plan.already) : "";
  if (plan.removed)
    note += fmt::format(", {} removed earlier, not queued again (--rerun-removed)", plan.removed);
  return note;
}

int submit_local(const CliState& st, const SubmitOptions& o,
                 const std::vector<spec::JobSpec>& specs) {
  std::error_code ec;
  const auto cwd = std::filesystem::current_path(ec).string();
  const auto containers = choose_containers(specs, o.no_container);
  auto reqs = all_requests(specs, cwd, containers);
  if (!reqs) return report(reqs.error());
  auto ctx = open_context(st.data_dir);
  if (!ctx) return report(ctx.error());
  LocalEngine engine(*(*ctx)->store, (*ctx)->engine, (*ctx)->clock);
  for (size_t i = 0; i < specs.size(); ++i) {
    for (const auto& c : local_caveats(specs[i])) out::eprint("trainyard: note: {}", c);
    auto plan = plan_local_submission(*(*ctx)->store, specs[i], std::move((*reqs)[i]), cwd,
                                      current_environment(), containers, o.rerun_removed);
    if (!plan) return report(plan.error());
    if (!plan->requests.empty())
      if (auto done = engine.submit_all(plan->requests, local_job(specs[i])); !done)
        return report(done.error());
    // Queued again: the job forgets them only now, so a refused submission keeps them removed.
    if (o.rerun_removed)
      if (auto f = (*ctx)->store->forget_removed_runs(kLocalAccount, specs[i].job.id); !f)
        return report(f.error());
    out::print("{}: {} task(s) queued{}", specs[i].job.id, plan->requests.size(),
               already_note(*plan));
  }
  return kExitOk;
}

int submit_command(const CliState& st, const SubmitOptions& o) {
  if (auto a = check_account(o.account, st.data_dir); !a) return report(a.error());
  if (o.no_container && !is_local(o))
    return report(make_error(ErrorKind::Usage,
                             "--no-container is for the local account: Batch nodes run the image"));
  if (is_local(o) && (!o.upload.dir.empty() || !o.upload.storage.empty()))
    return report(make_error(ErrorKind::Usage,
                             "--upload and --storage are for Batch accounts (--account A): a "
                             "local run reads its files where they are"));
  auto specs = spec::load_job_specs(o.file, load_options(st, o));
  if (!specs) return report(make_error(ErrorKind::Usage, specs.error().message));
  if (o.dry_run) {
    if (!o.upload.dir.empty())
      out::eprint("trainyard: note: --upload {} is sent only by a submit without --dry-run",
                  o.upload.dir);
    return dry_run(st, o, *specs);
  }
  if (!is_local(o)) return submit_to_batch(st, o.account, *specs, o.upload);
  return submit_local(st, o, *specs);
}

}  // namespace

void register_submit(CLI::App& app, CliState& st) {
  auto o = std::make_shared<SubmitOptions>();
  auto* cmd = app.add_subcommand(
      "submit",
      "Submit a job spec: Azure Batch JSON, Batch AI job.json or Batch Shipyard jobs.yaml");
  cmd->add_option("file", o->file, "The spec file")->required();
  cmd->add_option("--account", o->account, "Account: local (default), or a Batch account");
  cmd->add_option("--pool", o->pool, "Pool the job runs on (poolInfo.poolId)");
  cmd->add_option("--job-id", o->job_id,
                  "Job id for a task array, a Batch AI job or a jobs.yaml of one job");
  cmd->add_option("--mount-root", o->mount_root,
                  "Value of $AZ_BATCHAI_MOUNT_ROOT (Batch AI); locally DATA/shared/LS_root/mounts");
  cmd->add_option("--pool-nodes", o->pool_nodes,
                  "Nodes of the pool, for Shipyard's pool_current_* counts");
  cmd->add_flag("--no-container", o->no_container,
                "Run container tasks' commands on this machine, without docker or podman");
  cmd->add_flag("--rerun-removed", o->rerun_removed,
                "Local: queue again the tasks of the spec that `rm` removed from the job");
  add_upload_options(cmd, o->upload);
  cmd->add_flag("--dry-run", o->dry_run,
                "Create nothing; print what would be created and warn of what would fail");
  cmd->add_flag("--json", o->json,
                "With --dry-run: {\"job\", \"tasks\", \"unmapped\"} in Batch wire names");
  cmd->callback([&st, o] { st.action = [&st, o] { return submit_command(st, *o); }; });
}

}  // namespace trainyard
