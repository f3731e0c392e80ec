// Node actions: reboot, reimage, remove from the pool, scheduling on and off, remote login.
#include <fmt/format.h>

#include "batch_action.hpp"
#include "sync/entity_refresh.hpp"

namespace trainyard::act {
namespace {

using NodeRequest = std::function<Result<void>(azure::BatchClient&)>;

// What becomes of a node's running tasks, as the outcome says it.
std::string tasks_fate(azure::NodeTaskOption o) {
  switch (o) {
    case azure::NodeTaskOption::Requeue:
      return "running tasks requeued";
    case azure::NodeTaskOption::Terminate:
      return "running tasks terminated";
    case azure::NodeTaskOption::TaskCompletion:
      return "running tasks finish first";
    case azure::NodeTaskOption::RetainedData:
      return "running tasks requeued, their data kept";
  }
  return "";
}

BatchAction on_node(std::string what, std::string pool, std::string node, std::string done,
                    NodeRequest request) {
  return {std::move(what), ActionKind::Change,
          [pool, node, line = std::move(done), call = std::move(request)](ActionEnv& env) {
            return changed(
                call(env.client), [&] { return cache_node(env.store, env.client, pool, node); },
                line, "node " + node);
          }};
}

}  // namespace

BatchAction reboot_node(std::string pool, std::string node, azure::NodeTaskOption option) {
  return on_node("reboot node " + node, pool, node,
                 fmt::format("rebooting node {}/{} ({})", pool, node, tasks_fate(option)),
                 [pool, node, option](azure::BatchClient& c) {
                   return azure::reboot_node(c, pool, node, option);
                 });
}

BatchAction reimage_node(std::string pool, std::string node, azure::NodeTaskOption option) {
  return on_node("reimage node " + node, pool, node,
                 fmt::format("reimaging node {}/{} ({})", pool, node, tasks_fate(option)),
                 [pool, node, option](azure::BatchClient& c) {
                   return azure::reimage_node(c, pool, node, option);
                 });
}

BatchAction set_scheduling(std::string pool, std::string node, bool enable,
                           azure::NodeTaskOption option) {
  auto done = enable ? fmt::format("scheduling enabled on node {}/{}", pool, node)
                     : fmt::format("scheduling disabled on node {}/{} ({})", pool, node,
                                   tasks_fate(option));
  return on_node((enable ? "enable scheduling on node " : "disable scheduling on node ") + node,
                 pool, node, done, [pool, node, enable, option](azure::BatchClient& c) {
                   return enable ? azure::enable_scheduling(c, pool, node)
                                 : azure::disable_scheduling(c, pool, node, option);
                 });
}

// The node's state comes from the service, on the worker: what the cache says may be old.
BatchAction toggle_scheduling(std::string pool, std::string node) {
  return {"toggle scheduling on node " + node, ActionKind::Change,
          [pool, node](ActionEnv& env) -> Result<ActionOutcome> {
            auto n = azure::get_node(env.client, pool, node);
            if (!n) return n.error();
            bool enabled = n->scheduling_state == SchedulingState::Enabled;
            return set_scheduling(pool, node, !enabled).run(env);
          }};
}

BatchAction remove_nodes(std::string pool, std::vector<std::string> nodes,
                         azure::NodeTaskOption option) {
  auto refresh = [pool, nodes](ActionEnv& env) -> Result<void> {
    TY_TRY(cache_pool(env.store, env.client, pool));  // its targets dropped
    for (const auto& n : nodes) TY_TRY(cache_node(env.store, env.client, pool, n));
    return {};
  };
  return {"remove nodes from pool " + pool, ActionKind::Change,
          [pool, nodes, option, refresh](ActionEnv& env) {
            return changed(
                azure::remove_nodes(env.client, pool, nodes, option), [&] { return refresh(env); },
                fmt::format("removing {} node(s) from pool {} ({})", nodes.size(), pool,
                            tasks_fate(option)),
                "pool " + pool);
          }};
}

BatchAction remote_login(std::string pool, std::string node) {
  return {"remote login settings of node " + node, ActionKind::Read,
          [pool, node](ActionEnv& env) -> Result<ActionOutcome> {
            auto r = azure::remote_login_settings(env.client, pool, node);
            if (!r) return r.error();
            return ActionOutcome{
                fmt::format("{}  {}:{} (ssh -p {} USER@{})", node, r->ip, r->port, r->port, r->ip),
                {}};
          }};
}

}  // namespace trainyard::act
