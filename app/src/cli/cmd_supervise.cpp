// `trainyard __supervise`: the hidden entry point of a task's supervisor process.
#include <memory>

#include "app/cli.hpp"
#include "app/context.hpp"
#include "commands.hpp"
#include "local/supervisor.hpp"
#include "local/task_environment.hpp"
#include "sync/log_metrics.hpp"

namespace trainyard {
namespace {

// Metrics are parsed from both streams: tqdm writes its bar to stderr, print() to stdout.
std::vector<std::unique_ptr<LogMetricsFollower>> metric_followers(AppContext& ctx,
                                                                  const SupervisorArgs& args) {
  auto paths = run_paths(ctx.data_dir, args.job, args.task);
  std::vector<std::unique_ptr<LogMetricsFollower>> out;
  for (const auto& [file, path] :
       {std::pair{"stdout.txt", paths.stdout_txt}, {"stderr.txt", paths.stderr_txt}}) {
    auto f = std::make_unique<LogMetricsFollower>(*ctx.store, kLocalAccount, args.job, args.task,
                                                  file, path);
    (void)f->add_patterns(ctx.settings.metric_patterns);
    out.push_back(std::move(f));
  }
  return out;
}

int supervise_command(const CliState& st, const SupervisorArgs& args) {
  auto ctx = open_context(st.data_dir);
  if (!ctx) return report(ctx.error());
  // Slots come from the node record the submitter wrote, so every process agrees.
  if (auto nodes = (*ctx)->store->nodes(kLocalAccount, kLocalPool); nodes && !nodes->empty())
    (*ctx)->engine.cpu_slots = nodes->front().task_slots;
  auto followers = metric_followers(**ctx, args);
  SupervisorHooks hooks;
  hooks.while_running = [&] {
    for (auto& f : followers) (void)f->poll(false);
  };
  hooks.attempt_ended = [&] {
    for (auto& f : followers) (void)f->poll(true);
  };
  return run_supervisor(*(*ctx)->store, (*ctx)->engine, args, hooks);
}

}  // namespace

void register_supervise(CLI::App& app, CliState& st) {
  auto args = std::make_shared<SupervisorArgs>();
  auto* cmd = app.add_subcommand("__supervise", "");
  cmd->group("");  // hidden from --help
  cmd->add_option("--job", args->job)->required();
  cmd->add_option("--task", args->task)->required();
  cmd->add_flag("--adopt", args->adopt);
  cmd->callback([&st, args] { st.action = [&st, args] { return supervise_command(st, *args); }; });
}

}  // namespace trainyard
