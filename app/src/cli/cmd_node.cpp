// `trainyard node reboot|reimage|remove|disable-scheduling|enable-scheduling|remote-login
// --account A POOL NODE...`: Batch node actions.
#include <memory>

#include <fmt/format.h>

#include "action_util.hpp"
#include "app/cli.hpp"
#include "azure/batch_actions.hpp"
#include "cmd_node_connect.hpp"
#include "commands.hpp"

namespace trainyard {
namespace {

struct NodeFlags {
  std::string account, pool, option = "requeue";
  std::vector<std::string> nodes;
};

using OneNode = BatchAction (*)(std::string pool, std::string node, azure::NodeTaskOption);

// Runs `one` on each node in turn, stopping at the first failure (which names the node).
int each_node(const CliState& st, const NodeFlags& f, const char* command, const char* verb,
              OneNode one) {
  auto option = azure::parse_node_task_option(f.option);
  if (!option) return report_failure(command, option.error());
  const ActionKind kind = one(f.pool, "", *option).kind;
  return run_action(
      st, f.account, {command, fmt::format("{} in pool {}", verb, f.pool), kind},
      [&](ActionSession& s) -> Result<void> {
        for (const auto& node : f.nodes) {
          if (auto ok = run_in_session(s, one(f.pool, node, *option)); !ok)
            return make_error(ok.error().kind, "node " + node + ": " + ok.error().message);
        }
        return {};
      },
      [](ActionSession&) { return kExitOk; });
}

BatchAction disable_one(std::string pool, std::string node, azure::NodeTaskOption option) {
  return act::set_scheduling(std::move(pool), std::move(node), false, option);
}

BatchAction enable_one(std::string pool, std::string node, azure::NodeTaskOption) {
  return act::set_scheduling(std::move(pool), std::move(node), true);
}

BatchAction login_of(std::string pool, std::string node, azure::NodeTaskOption) {
  return act::remote_login(std::move(pool), std::move(node));
}

int node_reboot(const CliState& st, const NodeFlags& f) {
  return each_node(st, f, "node reboot", "reboot", act::reboot_node);
}

int node_reimage(const CliState& st, const NodeFlags& f) {
  return each_node(st, f, "node reimage", "reimage", act::reimage_node);
}

int node_disable(const CliState& st, const NodeFlags& f) {
  return each_node(st, f, "node disable-scheduling", "disable scheduling", disable_one);
}

int node_enable(const CliState& st, const NodeFlags& f) {
  return each_node(st, f, "node enable-scheduling", "enable scheduling", enable_one);
}

int node_remote_login(const CliState& st, const NodeFlags& f) {
  return each_node(st, f, "node remote-login", "remote login settings", login_of);
}

int node_remove(const CliState& st, const NodeFlags& f) {
  auto option = azure::parse_node_task_option(f.option);
  if (!option) return report_failure("node remove", option.error());
  return run_catalogued(st, f.account, "node remove", act::remove_nodes(f.pool, f.nodes, *option));
}

void leaf(CLI::App* parent, CliState& st, const std::shared_ptr<NodeFlags>& f, const char* name,
          const char* help, FlagsRunner<NodeFlags> run, bool takes_option) {
  auto* cmd = parent->add_subcommand(name, help);
  add_account_option(cmd, f->account);
  cmd->add_option("pool", f->pool, "Pool id")->required();
  cmd->add_option("nodes", f->nodes, "Node ids")->required();
  if (takes_option)
    cmd->add_option("--option", f->option,
                    "Running tasks: requeue (default), terminate, taskcompletion, retaineddata");
  cmd->callback([&st, f, run] { st.action = [&st, f, run] { return run(st, *f); }; });
}

}  // namespace

void register_node(CLI::App& app, CliState& st) {
  auto f = std::make_shared<NodeFlags>();
  auto* node =
      app.add_subcommand("node", "Batch nodes: reboot, reimage, remove, scheduling, connect");
  node->require_subcommand(1);
  leaf(node, st, f, "reboot", "Reboot nodes", node_reboot, true);
  leaf(node, st, f, "reimage", "Reinstall nodes' operating system", node_reimage, true);
  leaf(node, st, f, "remove", "Remove nodes from their pool (targets drop)", node_remove, true);
  leaf(node, st, f, "disable-scheduling", "Nodes take no new task", node_disable, true);
  leaf(node, st, f, "enable-scheduling", "Nodes take tasks again", node_enable, false);
  leaf(node, st, f, "remote-login", "Print where to SSH into nodes (IP:port)", node_remote_login,
       false);
  register_node_connect(node, st);
}

}  // namespace trainyard
