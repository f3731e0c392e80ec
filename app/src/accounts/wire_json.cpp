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
    if (!e.failure_info->details.empty())
      j["failureInfo"]["details"] = name_values(e.failure_info->details);
  }
  return j;
}

// `identityReference` of a resource or output file, when it names one.
void put_identity(json& j, const std::string& identity) {
  if (!identity.empty()) j["identityReference"] = {{"resourceId", identity}};
}

json resource_file(const ResourceFile& f) {
  json j = json::object();
  for (const auto& [key, value] :
       {std::pair{"httpUrl", &f.http_url},
        std::pair{"storageContainerUrl", &f.storage_container_url},
        std::pair{"autoStorageContainerName", &f.auto_storage_container_name},
        std::pair{"blobPrefix", &f.blob_prefix}, std::pair{"filePath", &f.file_path},
        std::pair{"fileMode", &f.file_mode}}) {
    if (!value->empty()) j[key] = *value;
  }
  put_identity(j, f.identity);
  return j;
}

json output_file(const OutputFile& f) {
  json container{{"containerUrl", f.container_url}};
  if (!f.path.empty()) container["path"] = f.path;
  put_identity(container, f.identity);
  if (!f.upload_headers.empty()) container["uploadHeaders"] = name_values(f.upload_headers);
  // taskcompletion is what the service reads an absent condition as.
  auto condition = f.upload_condition.empty() ? std::string("taskcompletion") : f.upload_condition;
  return {{"filePattern", f.file_pattern},
          {"destination", {{"container", container}}},
          {"uploadOptions", {{"uploadCondition", condition}}}};
}

template <typename T>
json list_of(const std::vector<T>& items, json (*to_json)(const T&)) {
  json out = json::array();
  for (const auto& item : items) out.push_back(to_json(item));
  return out;
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
  if (!t.resource_files.empty()) j["resourceFiles"] = list_of(t.resource_files, resource_file);
  if (!t.output_files.empty()) j["outputFiles"] = list_of(t.output_files, output_file);
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
  if (!job.on_all_tasks_complete.empty()) j["onAllTasksComplete"] = job.on_all_tasks_complete;
  if (!job.on_task_failure.empty()) j["onTaskFailure"] = job.on_task_failure;
  if (!job.terminate_reason.empty()) j["executionInfo"]["terminateReason"] = job.terminate_reason;
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
         {"isDedicated", n.is_dedicated}};
  put_time(j, "stateTransitionTime", n.state_transition_time);
  return j;
}

json account_to_wire(const Account& a) {
  json j{{"name", a.name}, {"kind", to_string(a.kind)}};
  if (!a.endpoint.empty()) j["accountEndpoint"] = a.endpoint;
  return j;
}

}  // namespace trainyard
