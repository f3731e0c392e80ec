// `trainyard __supervise`: the hidden entry point of a task's supervisor process.
#include "app/cli.hpp"
#include "app/context.hpp"
#include "commands.hpp"
#include "local/supervisor.hpp"

namespace trainyard {
namespace {

int supervise_command(const CliState& st, const SupervisorArgs& args) {
  auto ctx = open_context(st.data_dir);
  if (!ctx) return report(ctx.error());
  // Slots come from the node record the submitter wrote, so every process agrees.
  if (auto nodes = (*ctx)->store->nodes(kLocalAccount, kLocalPool); nodes && !nodes->empty())
    (*ctx)->engine.cpu_slots = nodes->front().task_slots;
  return run_supervisor(*(*ctx)->store, (*ctx)->engine, args);
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
