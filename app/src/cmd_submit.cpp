// `trainyard submit FILE`: Batch JSON, Batch AI job.json or Shipyard jobs.yaml, locally or to a
// Batch account.
#include <filesystem>

#include <fmt/format.h>

#include "app/cli.hpp"
#include "app/context.hpp"
#include "cmd_submit_batch.hpp"
#include "commands.hpp"
#include "local/task_environment.hpp"
#include "output.hpp"
#include "spec/load.hpp"
#include "spec_to_local.hpp"

namespace trainyard {
namespace {

struct SubmitOptions {
  std::string file, account, pool, job_id, mount_root;
  int pool_nodes = 0;
  bool dry_run = false, json = false;
};

spec::LoadOptions load_options(const SubmitOptions& o) {
  spec::LoadOptions l;
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

int dry_run(const std::vector<spec::JobSpec>& specs, bool json) {
  for (const auto& s : specs) {
    if (json)
      out::json_text(spec::to_wire_json(s));
    else
      print_summary(s);
  }
  return kExitOk;
}

// Every job is checked before anything is recorded, so a bad task creates nothing.
Result<std::vector<std::vector<SubmitRequest>>> all_requests(
    const std::vector<spec::JobSpec>& specs) {
  std::error_code ec;
  auto cwd = std::filesystem::current_path(ec).string();
  std::vector<std::vector<SubmitRequest>> out;
  for (const auto& s : specs) {
    auto reqs = local_requests(s, cwd, current_environment());
    if (!reqs) return reqs.error();
    out.push_back(std::move(*reqs));
  }
  return out;
}

int submit_local(const CliState& st, const std::vector<spec::JobSpec>& specs) {
  auto reqs = all_requests(specs);
  if (!reqs) return report(reqs.error());
  auto ctx = open_context(st.data_dir);
  if (!ctx) return report(ctx.error());
  LocalEngine engine(*(*ctx)->store, (*ctx)->engine, (*ctx)->clock);
  for (size_t i = 0; i < specs.size(); ++i) {
    for (const auto& c : local_caveats(specs[i])) out::eprint("trainyard: note: {}", c);
    auto done = engine.submit_all((*reqs)[i], local_job(specs[i]));
    if (!done) return report(done.error());
    out::print("{}: {} task(s) queued", specs[i].job.id, done->size());
  }
  return kExitOk;
}

int submit_command(const CliState& st, const SubmitOptions& o) {
  if (auto a = check_account(o.account, st.data_dir); !a) return report(a.error());
  auto specs = spec::load_job_specs(o.file, load_options(o));
  if (!specs) return report(make_error(ErrorKind::Usage, specs.error().message));
  if (o.dry_run) return dry_run(*specs, o.json);
  if (!o.account.empty() && o.account != kLocalAccount)
    return submit_to_batch(st, o.account, *specs);
  return submit_local(st, *specs);
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
  cmd->add_option("--job-id", o->job_id, "Job id for a task array or a Batch AI job");
  cmd->add_option("--mount-root", o->mount_root, "Value of $AZ_BATCHAI_MOUNT_ROOT (Batch AI)");
  cmd->add_option("--pool-nodes", o->pool_nodes,
                  "Nodes of the pool, for Shipyard's pool_current_* counts");
  cmd->add_flag("--dry-run", o->dry_run, "Create nothing; print what would be created");
  cmd->add_flag("--json", o->json,
                "With --dry-run: {\"job\", \"tasks\", \"unmapped\"} in Batch wire names");
  cmd->callback([&st, o] { st.action = [&st, o] { return submit_command(st, *o); }; });
}

}  // namespace trainyard
