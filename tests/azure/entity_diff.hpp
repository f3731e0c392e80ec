// Field-by-field comparison of cached entities with the service's, for the fault-equality test:
// every difference named by entity and wire field.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/entities.hpp"
#include "core/time.hpp"

namespace trainyard::azuretest {

inline std::string show(const std::string& s) {
  return "\"" + s + "\"";
}
inline std::string show(bool b) {
  return b ? "present" : "absent";
}
inline std::string show(int v) {
  return std::to_string(v);
}
inline std::string show(Timestamp t) {
  return format_iso8601(t);
}
inline std::string show(Duration d) {
  return format_iso_duration(d);
}
template <typename E>
requires std::is_enum_v<E>
inline std::string show(E e) {
  return std::string(to_wire(e));
}
template <typename T>
inline std::string show(const std::optional<T>& v) {
  return v ? show(*v) : "(none)";
}
inline std::string show(const std::vector<std::string>& v) {
  std::string out = "[";
  for (const auto& s : v) out += (out.size() > 1 ? "," : "") + show(s);
  return out + "]";
}
inline std::string show(const std::vector<NameValue>& v) {
  std::string out = "[";
  for (const auto& nv : v) out += (out.size() > 1 ? "," : "") + nv.name + "=" + nv.value;
  return out + "]";
}

/// Differences found, one line each: `what field: cached X, service Y`.
struct Diffs {
  std::vector<std::string> lines;
  template <typename T>
  void field(const std::string& what, const char* name, const T& cached, const T& service) {
    if (!(cached == service))
      lines.push_back(
          fmt::format("{} {}: cached {}, service {}", what, name, show(cached), show(service)));
  }
  void note(std::string line) { lines.push_back(std::move(line)); }
  std::string text(size_t most = 40) const {
    std::string out;
    for (size_t i = 0; i < lines.size() && i < most; ++i) out += lines[i] + "\n";
    if (lines.size() > most) out += fmt::format("… and {} more\n", lines.size() - most);
    return out;
  }
};

// Each expect_same compares every member of its entity struct (core/entities.hpp): a member
// added there needs a line here.
inline void expect_same(const Pool& c, const Pool& s, Diffs& d) {
  const std::string w = "pool " + s.id;
  d.field(w, "account", c.account, s.account);
  d.field(w, "id", c.id, s.id);
  d.field(w, "displayName", c.display_name, s.display_name);
  d.field(w, "vmSize", c.vm_size, s.vm_size);
  d.field(w, "state", c.state, s.state);
  d.field(w, "allocationState", c.allocation_state, s.allocation_state);
  d.field(w, "currentDedicatedNodes", c.current_dedicated_nodes, s.current_dedicated_nodes);
  d.field(w, "targetDedicatedNodes", c.target_dedicated_nodes, s.target_dedicated_nodes);
  d.field(w, "currentLowPriorityNodes", c.current_low_priority_nodes, s.current_low_priority_nodes);
  d.field(w, "targetLowPriorityNodes", c.target_low_priority_nodes, s.target_low_priority_nodes);
  d.field(w, "taskSlotsPerNode", c.task_slots_per_node, s.task_slots_per_node);
  d.field(w, "creationTime", c.creation_time, s.creation_time);
  d.field(w, "stateTransitionTime", c.state_transition_time, s.state_transition_time);
  d.field(w, "resizeErrors", c.resize_error, s.resize_error);
}

// `slots`: the service pool's taskSlotsPerNode. Exception: Node::task_slots is not on a node's
// wire (parse_node leaves it 1); the store derives it from the pool, so it is compared with the
// pool's value instead of the parsed node's.
inline void expect_same(const Node& c, const Node& s, int slots, Diffs& d) {
  const std::string w = "node " + s.pool_id + "/" + s.id;
  d.field(w, "account", c.account, s.account);
  d.field(w, "poolId", c.pool_id, s.pool_id);
  d.field(w, "id", c.id, s.id);
  d.field(w, "state", c.state, s.state);
  d.field(w, "schedulingState", c.scheduling_state, s.scheduling_state);
  d.field(w, "vmSize", c.vm_size, s.vm_size);
  d.field(w, "ipAddress", c.ip_address, s.ip_address);
  d.field(w, "runningTasksCount", c.running_tasks_count, s.running_tasks_count);
  d.field(w, "runningTaskSlotsCount", c.running_task_slots_count, s.running_task_slots_count);
  d.field(w, "totalTasksRun", c.total_tasks_run, s.total_tasks_run);
  d.field(w, "task_slots (pool's taskSlotsPerNode)", c.task_slots, slots);
  d.field(w, "stateTransitionTime", c.state_transition_time, s.state_transition_time);
  d.field(w, "errors", c.error, s.error);
}

inline void expect_same(const Job& c, const Job& s, Diffs& d) {
  const std::string w = "job " + s.id;
  d.field(w, "account", c.account, s.account);
  d.field(w, "id", c.id, s.id);
  d.field(w, "displayName", c.display_name, s.display_name);
  d.field(w, "poolInfo.poolId", c.pool_id, s.pool_id);
  d.field(w, "state", c.state, s.state);
  d.field(w, "priority", c.priority, s.priority);
  d.field(w, "creationTime", c.creation_time, s.creation_time);
  d.field(w, "stateTransitionTime", c.state_transition_time, s.state_transition_time);
  d.field(w, "metadata", c.metadata, s.metadata);
}

inline void expect_same(const Task& c, const Task& s, Diffs& d) {
  const std::string w = "task " + s.job_id + "/" + s.id;
  d.field(w, "account", c.account, s.account);
  d.field(w, "jobId", c.job_id, s.job_id);
  d.field(w, "id", c.id, s.id);
  d.field(w, "displayName", c.display_name, s.display_name);
  d.field(w, "commandLine", c.command_line, s.command_line);
  d.field(w, "state", c.state, s.state);
  d.field(w, "creationTime", c.creation_time, s.creation_time);
  d.field(w, "stateTransitionTime", c.state_transition_time, s.state_transition_time);
  d.field(w, "previousState", c.previous_state, s.previous_state);
  d.field(w, "environmentSettings", c.environment_settings, s.environment_settings);
  d.field(w, "constraints.maxWallClockTime", c.constraints.max_wall_clock_time,
          s.constraints.max_wall_clock_time);
  d.field(w, "constraints.maxTaskRetryCount", c.constraints.max_task_retry_count,
          s.constraints.max_task_retry_count);
  d.field(w, "dependsOn.taskIds", c.depends_on.task_ids, s.depends_on.task_ids);
  d.field(w, "requiredSlots", c.required_slots, s.required_slots);
  const auto &ce = c.execution_info, &se = s.execution_info;
  d.field(w, "executionInfo.startTime", ce.start_time, se.start_time);
  d.field(w, "executionInfo.endTime", ce.end_time, se.end_time);
  d.field(w, "executionInfo.exitCode", ce.exit_code, se.exit_code);
  d.field(w, "executionInfo.result", ce.result, se.result);
  d.field(w, "executionInfo.failureInfo", ce.failure_info.has_value(), se.failure_info.has_value());
  if (ce.failure_info && se.failure_info) {
    d.field(w, "failureInfo.category", ce.failure_info->category, se.failure_info->category);
    d.field(w, "failureInfo.code", ce.failure_info->code, se.failure_info->code);
    d.field(w, "failureInfo.message", ce.failure_info->message, se.failure_info->message);
  }
  d.field(w, "executionInfo.retryCount", ce.retry_count, se.retry_count);
  d.field(w, "executionInfo.lastRetryTime", ce.last_retry_time, se.last_retry_time);
  d.field(w, "executionInfo.requeueCount", ce.requeue_count, se.requeue_count);
  d.field(w, "nodeInfo", c.node_info.has_value(), s.node_info.has_value());
  if (c.node_info && s.node_info) {
    d.field(w, "nodeInfo.poolId", c.node_info->pool_id, s.node_info->pool_id);
    d.field(w, "nodeInfo.nodeId", c.node_info->node_id, s.node_info->node_id);
    d.field(w, "nodeInfo.taskRootDirectory", c.node_info->task_root_directory,
            s.node_info->task_root_directory);
  }
}

}  // namespace trainyard::azuretest
