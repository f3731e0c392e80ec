// `trainyard node reboot|reimage|remove|disable-scheduling|enable-scheduling|remote-login
// --account A POOL NODE...`: Batch node actions.
#include <memory>

#include <fmt/format.h>

#include "action_util.hpp"
#include "app/cli.hpp"
#include "azure/batch_actions.hpp"
#include "commands.hpp"

namespace trainyard {
namespace {

struct NodeFlags {
  std::string account, pool, option = "requeue";
  std::vector<std::string> nodes;
};

using OneNode = Result<void> (*)(azure::BatchClient&, const std::string& pool,
                                 const std::string& node, azure::NodeTaskOption);

// Runs `one` on each node in turn, stopping at the first failure (which names the node).
int each_node(const CliState& st, const NodeFlags& f, const char* command, const char* verb,
              OneNode one) {
  auto option = azure::parse_node_task_option(f.option);
  if (!option) return report_failure(command, option.error());
  return run_action(
      st, f.account, {command, fmt::format("{} in pool {}", verb, f.pool)},
      [&](ActionSession& s) -> Result<void> {
        for (const auto& node : f.nodes) {
          if (auto ok = one(*s.client, f.pool, node, *option); !ok)
            return make_error(ok.error().kind, "node " + node + ": " + ok.error().message);
        }
        return {};
      },
      [&](ActionSession& s) {
        for (const auto& node : f.nodes) {
          refresh_node(s, f.pool, node);
          print_done(fmt::format("{}: node {}/{}", verb, f.pool, node));
        }
        return kExitOk;
      });
}

int node_reboot(const CliState& st, const NodeFlags& f) {
  return each_node(st, f, "node reboot", "reboot", azure::reboot_node);
}

int node_reimage(const CliState& st, const NodeFlags& f) {
  return each_node(st, f, "node reimage", "reimage", azure::reimage_node);
}

int node_disable(const CliState& st, const NodeFlags& f) {
  return each_node(st, f, "node disable-scheduling", "disable scheduling",
                   azure::disable_scheduling);
}

int node_enable(const CliState& st, const NodeFlags& f) {
  auto enable = [](azure::BatchClient& c, const std::string& pool, const std::string& node,
                   azure::NodeTaskOption) { return azure::enable_scheduling(c, pool, node); };
  return each_node(st, f, "node enable-scheduling", "enable scheduling", enable);
}

int node_remove(const CliState& st, const NodeFlags& f) {
  auto option = azure::parse_node_task_option(f.option);
  if (!option) return report_failure("node remove", option.error());
  return run_action(
      st, f.account, {"node remove", "remove nodes from pool " + f.pool},
      [&](ActionSession& s) { return azure::remove_nodes(*s.client, f.pool, f.nodes, *option); },
      [&](ActionSession& s) {
        refresh_pool(s, f.pool);
        for (const auto& node : f.nodes) refresh_node(s, f.pool, node);
        return print_done(fmt::format("removing {} node(s) from pool {}", f.nodes.size(), f.pool));
      });
}

int node_remote_login(const CliState& st, const NodeFlags& f) {
  std::vector<std::pair<std::string, azure::RemoteLogin>> logins;
  return run_action(
      st, f.account,
      {"node remote-login", "remote login settings in pool " + f.pool, ActionKind::Read},
      [&](ActionSession& s) -> Result<void> {
        for (const auto& node : f.nodes) {
          auto r = azure::remote_login_settings(*s.client, f.pool, node);
          if (!r) return make_error(r.error().kind, "node " + node + ": " + r.error().message);
          logins.emplace_back(node, *r);
        }
        return {};
      },
      [&](ActionSession&) {
        for (const auto& [node, l] : logins)
          print_done(fmt::format("{}  {}:{}", node, l.ip, l.port));
        return kExitOk;
      });
}

using Runner = int (*)(const CliState&, const NodeFlags&);

void leaf(CLI::App* parent, CliState& st, const std::shared_ptr<NodeFlags>& f, const char* name,
          const char* help, Runner run, bool takes_option) {
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
  auto* node = app.add_subcommand("node", "Batch nodes: reboot, reimage, remove, scheduling");
  node->require_subcommand(1);
  leaf(node, st, f, "reboot", "Reboot nodes", node_reboot, true);
  leaf(node, st, f, "reimage", "Reinstall nodes' operating system", node_reimage, true);
  leaf(node, st, f, "remove", "Remove nodes from their pool (targets drop)", node_remove, true);
  leaf(node, st, f, "disable-scheduling", "Nodes take no new task", node_disable, true);
  leaf(node, st, f, "enable-scheduling", "Nodes take tasks again", node_enable, false);
  leaf(node, st, f, "remote-login", "Print where to SSH into nodes (IP:port)", node_remote_login,
       false);
}

}  // namespace trainyard
