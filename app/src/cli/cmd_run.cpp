// `trainyard run`: queue a command on the local engine.
#include <unistd.h>

#include <filesystem>
#include <sstream>

#include <fmt/format.h>

#include "app/cli.hpp"
#include "app/context.hpp"
#include "cmd_run_batch.hpp"
#include "commands.hpp"
#include "local/process.hpp"
#include "local/task_environment.hpp"
#include "output.hpp"

namespace trainyard {
namespace {

struct RunOptions {
  std::string account, job = "default", id, name, gpu_ids, max_wall, workdir, pool, coordination;
  UploadFlags upload;
  int gpus = 1, retries = 0, instances = 1;
  std::vector<std::string> after, command;
};

Result<std::vector<int>> parse_gpu_ids(const std::string& csv) {
  std::vector<int> out;
  std::stringstream ss(csv);
  for (std::string part; std::getline(ss, part, ',');) {
    try {
      size_t used = 0;
      int v = std::stoi(part, &used);
      if (used != part.size() || v < 0) throw std::invalid_argument(part);
      out.push_back(v);
    } catch (const std::exception&) {
      return make_error(ErrorKind::Usage, fmt::format("--gpu-ids '{}': expected e.g. 0,2", csv));
    }
  }
  return out;
}

Result<SubmitRequest> to_request(const RunOptions& o) {
  SubmitRequest req;
  req.job = o.job;
  req.id = o.id;
  req.display_name = o.name;
  req.command_line = shell_quote(o.command);
  req.gpus = o.gpus;
  req.max_retries = o.retries;
  req.after = o.after;
  req.instances = o.instances;
  req.coordination_command = o.coordination;
  req.environment = current_environment();
  std::error_code ec;
  auto wd = o.workdir.empty() ? std::filesystem::current_path(ec)
                              : std::filesystem::absolute(o.workdir, ec);
  // The error_code form: a path that cannot be examined (a loop of links, a name too long, no
  // permission) is the user's error, not an exception.
  const bool is_dir = !ec && std::filesystem::is_directory(wd, ec);
  if (!is_dir)
    return make_error(ErrorKind::Usage, fmt::format("--workdir '{}': {}", o.workdir,
                                                    ec ? ec.message() : "not a directory"));
  req.workdir = wd.string();
  if (!o.gpu_ids.empty()) {
    auto ids = parse_gpu_ids(o.gpu_ids);
    if (!ids) return ids.error();
    req.gpu_ids = *ids;
  }
  if (!o.max_wall.empty()) {
    auto d = parse_human_duration(o.max_wall);
    if (!d) return make_error(ErrorKind::Usage, "--max-wall: " + d.error().message);
    req.max_wall = *d;
  }
  return req;
}

// The same options on a Batch account; what only a local run can do is refused, not ignored.
int run_batch_command(const CliState& st, const RunOptions& o) {
  if (!o.gpu_ids.empty() || !o.workdir.empty())
    return report(make_error(ErrorKind::Usage,
                             "--gpu-ids and --workdir are for local runs: a Batch node picks its "
                             "own GPUs and runs in the task's directory"));
  RunBatchRequest r{
      o.account, o.job,     o.id,         o.name,  o.pool,      shell_quote(o.command),
      o.gpus,    o.retries, std::nullopt, o.after, o.instances, o.coordination,
      o.upload};
  if (!o.max_wall.empty()) {
    auto d = parse_human_duration(o.max_wall);
    if (!d) return report(make_error(ErrorKind::Usage, "--max-wall: " + d.error().message));
    r.max_wall = *d;
  }
  return run_on_batch(st, r);
}

int run_command(const CliState& st, RunOptions o) {
  if (!st.command_words.empty())
    o.command.insert(o.command.end(), st.command_words.begin(), st.command_words.end());
  if (o.command.empty())
    return report(
        make_error(ErrorKind::Usage, "no command given: trainyard run [OPTIONS] -- CMD..."));
  if (auto a = check_account(o.account, st.data_dir); !a) return report(a.error());
  if (!o.account.empty() && o.account != kLocalAccount) return run_batch_command(st, o);
  if (!o.pool.empty())
    return report(make_error(ErrorKind::Usage, "--pool is for Batch accounts (--account A)"));
  if (!o.upload.dir.empty() || !o.upload.storage.empty())
    return report(make_error(ErrorKind::Usage,
                             "--upload and --storage are for Batch accounts (--account A): a "
                             "local run reads its files where they are"));
  auto req = to_request(o);
  if (!req) return report(req.error());
  auto ctx = open_context(st.data_dir);
  if (!ctx) return report(ctx.error());
  LocalEngine engine(*(*ctx)->store, (*ctx)->engine, (*ctx)->clock);
  auto task = engine.submit(*req);
  if (!task) return report(task.error());
  out::print("{}/{}", task->job_id, task->id);
  return kExitOk;
}

}  // namespace

void register_run(CLI::App& app, CliState& st) {
  auto o = std::make_shared<RunOptions>();
  auto* cmd = app.add_subcommand(
      "run", "Queue a command on a local slot: trainyard run [OPTIONS] -- CMD...");
  cmd->add_option("--account", o->account, "Account: local (default), or a Batch account");
  cmd->add_option("--pool", o->pool, "Batch: the pool a new job is created on");
  cmd->add_option("--job", o->job, "Job id (default 'default')");
  cmd->add_option("--id", o->id, "Task id (default: generated)");
  cmd->add_option("--name", o->name, "Display name");
  cmd->add_option("--gpus", o->gpus, "Slots (GPUs) the task needs")->check(CLI::PositiveNumber);
  cmd->add_option("--gpu-ids", o->gpu_ids, "Run on exactly these GPUs, e.g. 0,2");
  cmd->add_option("--retries", o->retries, "Retries after a failure (-1: unlimited)");
  cmd->add_option("--max-wall", o->max_wall, "Wall-clock limit, e.g. 30m, 2h, PT1H");
  cmd->add_option("--after", o->after, "Start after JOB/TASK succeeded (repeatable)");
  cmd->add_option("--instances", o->instances,
                  "Multi-instance: run on N nodes (locally N sets of --gpus slots); the "
                  "command runs on the primary after every instance's --coordination")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--coordination", o->coordination,
                  "Multi-instance: shell command every instance runs first");
  cmd->add_option("--workdir", o->workdir, "Working directory (default: the current one)");
  add_upload_options(cmd, o->upload);
  cmd->add_option("command", o->command, "The command, after --");
  cmd->callback([&st, o] { st.action = [&st, o] { return run_command(st, *o); }; });
}

}  // namespace trainyard
