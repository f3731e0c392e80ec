// Compute nodes: list, get, reboot, reimage, scheduling, remote login settings and users.
#include <fmt/format.h>

#include "node_api.hpp"
#include "wire_time.hpp"

namespace trainyard::emu {

std::string NodeApi::render_node(const NodeEntity& n, const Select& s) const {
  const auto& pool = account_.pools_.at(n.pool_id);
  std::string out;
  JsonOut j(out, &s);
  j.begin_object();
  j.str("id", n.id);
  j.str("url", fmt::format("{}/pools/{}/nodes/{}", account_.base_url_, n.pool_id, n.id));
  j.str("state", wire(n.state));
  j.str("schedulingState", n.scheduling_enabled ? "enabled" : "disabled");
  j.when("stateTransitionTime", n.state_time);
  j.when("lastBootTime", n.boot_time);
  j.when("allocationTime", n.allocation_time);
  j.str("ipAddress", n.ip);
  j.str("affinityId", fmt::format("TVM:{}", n.id));
  j.json("vmSize", pool.spec.value("vmSize", nlohmann::json()));
  j.num("totalTasksRun", n.total_tasks_run);
  j.num("runningTasksCount", n.running_tasks);
  j.num("runningTaskSlotsCount", n.running_slots);
  j.num("totalTasksSucceeded", n.total_tasks_succeeded);
  if (j.key("recentTasks")) {
    j.begin_array();
    for (const auto& [job, task] : n.recent) {
      j.begin_object();
      j.str("taskUrl", fmt::format("{}/jobs/{}/tasks/{}", account_.base_url_, job, task));
      j.str("jobId", job);
      j.str("taskId", task);
      auto ji = account_.jobs_.find(job);
      const TaskEntity* t = nullptr;
      if (ji != account_.jobs_.end()) {
        auto ti = ji->second.tasks.find(task);
        if (ti != ji->second.tasks.end()) t = &ti->second;
      }
      if (t) j.str("taskState", wire(t->state));
      j.end_object();
    }
    j.end_array();
  }
  if (pool.spec.contains("startTask")) j.json("startTask", pool.spec["startTask"]);
  if (n.start_task && j.key("startTaskInfo")) {
    const auto& e = *n.start_task;
    j.begin_object();
    j.str("state", n.start_task_running ? "running" : "completed");
    j.when("startTime", e.start);
    j.when("endTime", e.end);
    if (e.exit_code) j.num("exitCode", *e.exit_code);
    if (!e.failure_code.empty()) {
      j.json("failureInfo",
             {{"category", "usererror"}, {"code", e.failure_code}, {"message", e.failure_message}});
    }
    j.num("retryCount", e.retry_count);
    if (e.result != TaskResult::None) j.str("result", wire(e.result));
    j.end_object();
  }
  if (n.state == NodeState::StartTaskFailed || n.state == NodeState::Unusable) {
    j.json(
        "errors",
        nlohmann::json::array(
            {{{"code", n.state == NodeState::StartTaskFailed ? "StartTaskFailed" : "NodeUnusable"},
              {"message", n.state == NodeState::StartTaskFailed
                              ? "The start task failed; see startTaskInfo."
                              : "The node is unusable."}}}));
  }
  j.flag("isDedicated", n.dedicated);
  j.json("nodeAgentInfo",
         {{"version", "1.12.6"}, {"lastUpdateTime", format_time(n.allocation_time)}});
  j.json(
      "virtualMachineInfo",
      {{"imageReference", pool.spec.value("virtualMachineConfiguration", nlohmann::json::object())
                              .value("imageReference", nlohmann::json::object())}});
  j.end_object();
  return out;
}

void NodeApi::list_nodes(Call& c, const std::string& pool) {
  ListQuery q;
  if (!read_list_query(c, ListKind::Nodes, q)) return;
  std::shared_lock lock(account_.mu_);
  if (!account_.pools_.count(pool)) return c.error(errors::kPoolNotFound);
  std::string body = page_start(account_.base_url_, "nodes");
  auto keep = [&](const auto& entry) {
    const NodeEntity& n = entry.second;
    if (n.pool_id != pool) return false;
    auto get = [&](std::string_view prop) -> FilterValue {
      if (prop == "id") return n.id;
      if (prop == "state") return std::string(wire(n.state));
      if (prop == "schedulingState")
        return std::string(n.scheduling_enabled ? "enabled" : "disabled");
      if (prop == "stateTransitionTime") return from_micros(n.state_time);
      if (prop == "lastBootTime") return from_micros(n.boot_time);
      if (prop == "allocationTime") return from_micros(n.allocation_time);
      if (prop == "isDedicated") return n.dedicated;
      if (prop == "ipAddress") return n.ip;
      return {};
    };
    return q.filter.matches(get);
  };
  auto write = [&](const auto& entry, std::string& out) {
    out += render_node(entry.second, q.select);
  };
  send_page(c, body, fill_map_page(body, q, account_.nodes_, keep, write));
}

void NodeApi::get_node(Call& c, const std::string& pool, const std::string& node) {
  std::shared_lock lock(account_.mu_);
  auto* n = account_.find_node(c, pool, node);
  if (!n) return;
  c.json(200, render_node(*n, Select::parse(c.param("$select"))));
}

void NodeApi::node_action(Call& c, const std::string& pool, const std::string& node,
                          const std::string& action) {
  std::unique_lock lock(account_.mu_);
  auto* n = account_.find_node(c, pool, node);
  if (!n) return;
  if (action == "remoteloginsettings") {
    return c.json(200,
                  nlohmann::json{{"remoteLoginIPAddress", "127.0.0.1"},
                                 {"remoteLoginPort",
                                  50000 + static_cast<int>(std::hash<std::string>{}(n->id) % 1000)}}
                      .dump());
  }
  if (action == "disablescheduling" || action == "enablescheduling") {
    n->scheduling_enabled = action == "enablescheduling";
    ++account_.changes_;
    return c.empty(200, fmt::format("{}/pools/{}/nodes/{}", account_.base_url_, pool, node));
  }
  if (action == "uploadbatchservicelogs") {
    return c.json(
        200, nlohmann::json{{"virtualDirectoryName", n->id}, {"numberOfFilesUploaded", 0}}.dump());
  }
  bool idle_or_running = n->state == NodeState::Idle || n->state == NodeState::Running ||
                         n->state == NodeState::StartTaskFailed ||
                         n->state == NodeState::Unusable || n->state == NodeState::Preempted;
  if (!idle_or_running) {
    return c.error(errors::kNodeNotReady, {{"NodeState", wire(n->state)}});
  }
  if (action == "start" || action == "deallocate") {
    return c.error(errors::kInvalidForCurrentState);
  }
  // Reboot and reimage: running tasks go back to the queue (the default `requeue` option).
  for (auto& [jid, j] : account_.jobs_) {
    for (auto it = j.running.begin(); it != j.running.end();) {
      auto& t = j.tasks.at(*it++);
      if (t.node_id == n->id) account_.requeue_task(j, t);
    }
  }
  n->state = action == "reboot" ? NodeState::Rebooting : NodeState::Reimaging;
  n->state_time = c.now;
  if (action == "reimage") n->start_task.reset();
  ++account_.changes_;
  c.empty(202, fmt::format("{}/pools/{}/nodes/{}", account_.base_url_, pool, node));
}

namespace {

constexpr Micros kOneDay = 24LL * 3600 * 1000 * 1000;

// Kept beside the only operations that answer them (the users of a node).
constexpr ErrorText kNodeUserExists{409, "NodeUserExists",
                                    "The specified node user already exists."};
constexpr ErrorText kNodeUserNotFound{404, "NodeUserNotFound",
                                      "The specified node user does not exist."};

// A user's expiry as the body gives it (a day from now when absent); none when it is not a
// time to come.
std::optional<Micros> user_expiry(const nlohmann::json& body, Micros now) {
  if (!body.contains("expiryTime") || body["expiryTime"].is_null()) return now + kOneDay;
  if (!body["expiryTime"].is_string()) return std::nullopt;
  auto t = read_wire_time(body["expiryTime"].get<std::string>());
  if (!t || *t <= now) return std::nullopt;
  return t;
}

bool optional_string(const nlohmann::json& body, const char* name) {
  return !body.contains(name) || body[name].is_null() || body[name].is_string();
}

}  // namespace

void NodeApi::add_user(Call& c, const std::string& pool, const std::string& node) {
  nlohmann::json body;
  if (!c.body_object(body)) return;
  if (!body.contains("name") || !body["name"].is_string() ||
      body["name"].get<std::string>().empty())
    return bad_property(c, errors::kMissingRequiredProperty, "name");
  for (const char* text : {"password", "sshPublicKey"})
    if (!optional_string(body, text)) return bad_property(c, errors::kInvalidPropertyValue, text);
  if (body.contains("isAdmin") && !body["isAdmin"].is_boolean())
    return bad_property(c, errors::kInvalidPropertyValue, "isAdmin");
  auto expiry = user_expiry(body, c.now);
  if (!expiry) return bad_property(c, errors::kInvalidPropertyValue, "expiryTime");
  std::unique_lock lock(account_.mu_);
  auto* n = account_.find_node(c, pool, node);
  if (!n) return;
  const auto name = body["name"].get<std::string>();
  auto& users = users_[pool + "/" + node];
  if (users.count(name)) return c.error(kNodeUserExists);
  users[name] = *expiry;
  ++account_.changes_;
  c.empty(201, fmt::format("{}/pools/{}/nodes/{}/users/{}", account_.base_url_, pool, node, name));
}

void NodeApi::update_user(Call& c, const std::string& pool, const std::string& node,
                          const std::string& name) {
  nlohmann::json body;
  if (!c.body_object(body)) return;
  for (const char* text : {"password", "sshPublicKey"})
    if (!optional_string(body, text)) return bad_property(c, errors::kInvalidPropertyValue, text);
  auto expiry = user_expiry(body, c.now);
  if (!expiry) return bad_property(c, errors::kInvalidPropertyValue, "expiryTime");
  std::unique_lock lock(account_.mu_);
  auto* n = account_.find_node(c, pool, node);
  if (!n) return;
  auto& users = users_[pool + "/" + node];
  auto user = users.find(name);
  if (user == users.end()) return c.error(kNodeUserNotFound);
  user->second = *expiry;
  ++account_.changes_;
  c.empty(200);
}

void NodeApi::delete_user(Call& c, const std::string& pool, const std::string& node,
                          const std::string& name) {
  std::unique_lock lock(account_.mu_);
  auto* n = account_.find_node(c, pool, node);
  if (!n) return;
  if (!users_[pool + "/" + node].erase(name)) return c.error(kNodeUserNotFound);
  ++account_.changes_;
  c.empty(200);
}

}  // namespace trainyard::emu
