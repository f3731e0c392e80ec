// CloudPool, ComputeNode and CloudJob from their wire JSON (azure-batch-api.md §5).
#include <fmt/format.h>

#include "azure/parse.hpp"
#include "parse_values.hpp"

namespace trainyard::azure {
namespace {

using nlohmann::json;

void read_node_counts(const JsonFields& f, Pool& p) {
  f.get("currentDedicatedNodes", p.current_dedicated_nodes);
  f.get("targetDedicatedNodes", p.target_dedicated_nodes);
  f.get("currentLowPriorityNodes", p.current_low_priority_nodes);
  f.get("targetLowPriorityNodes", p.target_low_priority_nodes);
}

void read_pool_states(const JsonFields& f, Pool& p) {
  // Unknown pool state reads as active: the only other state, deleting, ends the pool, and an
  // unknown one is more likely a new working state than a new way of being deleted.
  f.get_enum("state", p.state, PoolState::Active);
  // Unknown allocation state reads as resizing: it is a change we don't know, and only steady
  // pools may be resized, so nothing acts on a pool in it as if it were settled.
  f.get_enum("allocationState", p.allocation_state, AllocationState::Resizing);
}

void read_node_states(const JsonFields& f, Node& n) {
  // NodeState has its own catch-all, unknown, which is what the service means by it too.
  f.get_enum("state", n.state, NodeState::Unknown);
  // Unknown scheduling state reads as disabled: a node we cannot read as taking tasks is not
  // counted as taking them.
  f.get_enum("schedulingState", n.scheduling_state, SchedulingState::Disabled);
}

// `code: message` of each element of array `key` (resizeErrors, errors), `; `-joined.
std::string error_list(const JsonFields& f, std::string_view key) {
  std::string out;
  const json* list = f.array(key);
  for (std::size_t i = 0; list && i < list->size(); ++i) {
    auto e = f.element(key, i);
    std::string code, message;
    e.get("code", code);
    e.get("message", message);
    if (!out.empty()) out += "; ";
    out += message.empty() ? code : code + ": " + message;
  }
  return out;
}

// startTaskInfo.failureInfo with the exit code, then the node's errors.
std::string node_error(const JsonFields& f) {
  auto start = f.child("startTaskInfo");
  std::string out;
  if (start.has("failureInfo")) {
    std::optional<int> exit_code;
    start.get("exitCode", exit_code);
    auto info = start.child("failureInfo");
    std::string code, message;
    info.get("code", code);
    info.get("message", message);
    out = "start task failed" + (exit_code ? " (exit " + std::to_string(*exit_code) + ")" : "") +
          ": " + (message.empty() ? code : code + ": " + message);
  }
  auto errors = error_list(f, "errors");
  if (!errors.empty()) out += (out.empty() ? "" : "; ") + errors;
  return out;
}

}  // namespace

Result<Pool> parse_pool(const json& j, const std::string& account) try {
  std::optional<Error> err;
  JsonFields f(j, "", err);
  Pool p;
  p.account = account;
  f.require("id", p.id);
  f.get("displayName", p.display_name);
  f.get("vmSize", p.vm_size);
  read_pool_states(f, p);
  read_node_counts(f, p);
  // API versions before 2020-09-01 call it maxTasksPerNode; the new name wins when both appear.
  f.get("maxTasksPerNode", p.task_slots_per_node);
  f.get("taskSlotsPerNode", p.task_slots_per_node);
  f.get("creationTime", p.creation_time);
  f.get("stateTransitionTime", p.state_transition_time);
  f.get("lastModified", p.last_modified);
  f.get("eTag", p.etag);
  p.resize_error = error_list(f, "resizeErrors");
  if (err) return *err;
  return p;
} catch (const std::exception& e) {
  return detail::unreadable_json(e);
}

Result<Node> parse_node(const json& j, const std::string& account, const std::string& pool) try {
  std::optional<Error> err;
  JsonFields f(j, "", err);
  Node n;
  n.account = account;
  n.pool_id = pool;
  f.require("id", n.id);
  read_node_states(f, n);
  f.get("vmSize", n.vm_size);
  f.get("ipAddress", n.ip_address);
  f.get("runningTasksCount", n.running_tasks_count);
  f.get("runningTaskSlotsCount", n.running_task_slots_count);
  f.get("totalTasksRun", n.total_tasks_run);
  f.get("stateTransitionTime", n.state_transition_time);
  // Absent (API versions before Spot) means dedicated, as Batch's default is.
  f.get("isDedicated", n.is_dedicated);
  n.error = node_error(f);
  // task_slots is the pool's taskSlotsPerNode, not on the node's wire; the caller fills it.
  if (err) return *err;
  return n;
} catch (const std::exception& e) {
  return detail::unreadable_json(e);
}

Result<Job> parse_job(const json& j, const std::string& account) try {
  std::optional<Error> err;
  JsonFields f(j, "", err);
  Job job;
  job.account = account;
  f.require("id", job.id);
  f.get("displayName", job.display_name);
  // A job on an auto pool names its pool only in executionInfo; poolInfo.poolId wins if both.
  f.child("executionInfo").get("poolId", job.pool_id);
  f.child("poolInfo").get("poolId", job.pool_id);
  // Unknown job state reads as active: not final, so pollers keep watching the job.
  f.get_enum("state", job.state, JobState::Active);
  f.get("priority", job.priority);
  f.get("creationTime", job.creation_time);
  f.get("stateTransitionTime", job.state_transition_time);
  f.get("lastModified", job.last_modified);
  f.get("eTag", job.etag);
  f.get("metadata", job.metadata);
  f.get("onAllTasksComplete", job.on_all_tasks_complete);
  f.get("onTaskFailure", job.on_task_failure);
  f.child("executionInfo").get("terminateReason", job.terminate_reason);
  if (err) return *err;
  return job;
} catch (const std::exception& e) {
  return detail::unreadable_json(e);
}

}  // namespace trainyard::azure
