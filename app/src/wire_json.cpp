#include "app/wire_json.hpp"

namespace trainyard {
namespace {

using nlohmann::json;

// Batch's spelling of "no limit" for durations.
constexpr const char* kUnlimited = "P10675199DT2H48M5.4775807S";

void put_time(json& j, const char* key, const std::optional<Timestamp>& t) {
  if (t) j[key] = format_iso8601(*t);
}

json name_values(const std::vector<NameValue>& v) {
  json out = json::array();
  for (const auto& nv : v) out.push_back({{"name", nv.name}, {"value", nv.value}});
  return out;
}

json execution_info(const ExecutionInfo& e) {
  json j{{"retryCount", e.retry_count}, {"requeueCount", e.requeue_count}};
  put_time(j, "startTime", e.start_time);
  put_time(j, "endTime", e.end_time);
  put_time(j, "lastRetryTime", e.last_retry_time);
  if (e.exit_code) j["exitCode"] = *e.exit_code;
  if (e.result) j["result"] = to_wire(*e.result);
  if (e.failure_info) {
    j["failureInfo"] = {{"category", to_wire(e.failure_info->category)},
                        {"code", e.failure_info->code},
                        {"message", e.failure_info->message}};
  }
  return j;
}

json constraints(const TaskConstraints& c) {
  return {{"maxWallClockTime",
           c.max_wall_clock_time ? format_iso_duration(*c.max_wall_clock_time) : kUnlimited},
          {"retentionTime", "P7D"},
          {"maxTaskRetryCount", c.max_task_retry_count}};
}

}  // namespace

json task_to_wire(const Task& t) {
  json j{{"id", t.id},
         {"state", to_wire(t.state)},
         {"commandLine", t.command_line},
         {"requiredSlots", t.required_slots},
         {"constraints", constraints(t.constraints)},
         {"executionInfo", execution_info(t.execution_info)},
         {"environmentSettings", name_values(t.environment_settings)}};
  if (!t.display_name.empty()) j["displayName"] = t.display_name;
  put_time(j, "creationTime", t.creation_time);
  put_time(j, "stateTransitionTime", t.state_transition_time);
  if (t.previous_state) j["previousState"] = to_wire(*t.previous_state);
  if (!t.depends_on.task_ids.empty()) j["dependsOn"] = {{"taskIds", t.depends_on.task_ids}};
  if (t.node_info) {
    j["nodeInfo"] = {{"poolId", t.node_info->pool_id},
                     {"nodeId", t.node_info->node_id},
                     {"taskRootDirectory", t.node_info->task_root_directory}};
  }
  if (t.multi_instance) {
    j["multiInstanceSettings"] = {{"numberOfInstances", t.multi_instance->number_of_instances}};
    if (!t.multi_instance->coordination_command_line.empty())
      j["multiInstanceSettings"]["coordinationCommandLine"] =
          t.multi_instance->coordination_command_line;
  }
  return j;
}

json job_to_wire(const Job& job) {
  json j{{"id", job.id},
         {"state", to_wire(job.state)},
         {"priority", job.priority},
         {"poolInfo", {{"poolId", job.pool_id}}},
         {"metadata", name_values(job.metadata)}};
  if (!job.display_name.empty()) j["displayName"] = job.display_name;
  put_time(j, "creationTime", job.creation_time);
  put_time(j, "stateTransitionTime", job.state_transition_time);
  return j;
}

json pool_to_wire(const Pool& p) {
  json j{{"id", p.id},
         {"vmSize", p.vm_size},
         {"state", to_wire(p.state)},
         {"allocationState", to_wire(p.allocation_state)},
         {"currentDedicatedNodes", p.current_dedicated_nodes},
         {"targetDedicatedNodes", p.target_dedicated_nodes},
         {"currentLowPriorityNodes", p.current_low_priority_nodes},
         {"targetLowPriorityNodes", p.target_low_priority_nodes},
         {"taskSlotsPerNode", p.task_slots_per_node}};
  if (!p.display_name.empty()) j["displayName"] = p.display_name;
  put_time(j, "creationTime", p.creation_time);
  put_time(j, "stateTransitionTime", p.state_transition_time);
  return j;
}

json node_to_wire(const Node& n) {
  json j{{"id", n.id},
         {"state", to_wire(n.state)},
         {"schedulingState", to_wire(n.scheduling_state)},
         {"vmSize", n.vm_size},
         {"ipAddress", n.ip_address},
         {"runningTasksCount", n.running_tasks_count},
         {"runningTaskSlotsCount", n.running_task_slots_count},
         {"totalTasksRun", n.total_tasks_run},
         {"isDedicated", true}};
  put_time(j, "stateTransitionTime", n.state_transition_time);
  return j;
}

json account_to_wire(const Account& a) {
  json j{{"name", a.name}, {"kind", to_string(a.kind)}};
  if (!a.endpoint.empty()) j["accountEndpoint"] = a.endpoint;
  return j;
}

}  // namespace trainyard
