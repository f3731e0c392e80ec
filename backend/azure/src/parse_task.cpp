// CloudTask from its wire JSON (azure-batch-api.md §5), dependsOn ranges expanded.
#include <algorithm>
#include <cstdint>

#include <fmt/format.h>

#include "azure/http.hpp"
#include "azure/parse.hpp"
#include "parse_values.hpp"

namespace trainyard::azure {
namespace {

using nlohmann::json;

void read_task_states(const JsonFields& f, Task& t) {
  // Unknown task state reads as active: not final, so the task is watched until it completes.
  f.get_enum("state", t.state, TaskState::Active);
  // Unknown previous state reads as none: it is shown only, and no guess is better than a wrong
  // one.
  f.get_enum("previousState", t.previous_state, std::optional<TaskState>{});
}

void read_constraints(const JsonFields& f, TaskConstraints& c) {
  f.get("maxWallClockTime", c.max_wall_clock_time);
  f.get("maxTaskRetryCount", c.max_task_retry_count);
}

// Appends the ids start..end of one taskIdRanges entry.
void expand_range(const JsonFields& r, std::vector<std::string>& ids) {
  int start = 0, end = 0;
  r.require("start", start);
  r.require("end", end);
  if (!r.ok()) return;
  if (auto ok = detail::append_id_range(start, end, ids); !ok) r.fail("", ok.error().message);
}

void read_depends_on(const JsonFields& f, std::vector<std::string>& ids) {
  f.get("taskIds", ids);
  const json* ranges = f.array("taskIdRanges");
  for (std::size_t i = 0; ranges && i < ranges->size() && f.ok(); ++i)
    expand_range(f.element("taskIdRanges", i), ids);
}

FailureInfo read_failure_info(const JsonFields& f) {
  FailureInfo fi;
  // Unknown category reads as usererror: retry logic treats servererror as the service's fault
  // and may retry, which an unknown category gives no grounds for.
  f.get_enum("category", fi.category, ErrorCategory::UserError);
  f.get("code", fi.code);
  f.get("message", fi.message);
  f.get("details", fi.details);
  return fi;
}

void read_execution_info(const JsonFields& f, ExecutionInfo& e) {
  f.get("startTime", e.start_time);
  f.get("endTime", e.end_time);
  f.get("exitCode", e.exit_code);
  // Unknown result reads as failure: whatever it is, the service did not say success.
  f.get_enum("result", e.result, std::optional<TaskResult>(TaskResult::Failure));
  if (f.has("failureInfo")) e.failure_info = read_failure_info(f.child("failureInfo"));
  f.get("retryCount", e.retry_count);
  f.get("lastRetryTime", e.last_retry_time);
  f.get("requeueCount", e.requeue_count);
}

TaskNodeInfo read_node_info(const JsonFields& f) {
  TaskNodeInfo n;
  f.get("poolId", n.pool_id);
  f.get("nodeId", n.node_id);
  f.get("taskRootDirectory", n.task_root_directory);
  return n;
}

void read_task_basics(const JsonFields& f, Task& t) {
  f.require("id", t.id);
  f.get("displayName", t.display_name);
  f.get("commandLine", t.command_line);
  read_task_states(f, t);
  f.get("creationTime", t.creation_time);
  f.get("stateTransitionTime", t.state_transition_time);
  f.get("lastModified", t.last_modified);
  f.get("eTag", t.etag);
  f.get("environmentSettings", t.environment_settings);
  f.get("requiredSlots", t.required_slots);
}

// A storage URL as kept: without its query, where a SAS signature lives, nor user info.
std::string unsigned_url(const JsonFields& f, std::string_view key) {
  std::string url;
  f.get(key, url);
  return url.empty() ? url : redact_url(url);
}

std::string identity_of(const JsonFields& f) {
  std::string id;
  f.child("identityReference").get("resourceId", id);
  return id;
}

ResourceFile read_resource_file(const JsonFields& f) {
  ResourceFile r;
  r.http_url = unsigned_url(f, "httpUrl");
  r.storage_container_url = unsigned_url(f, "storageContainerUrl");
  f.get("autoStorageContainerName", r.auto_storage_container_name);
  f.get("blobPrefix", r.blob_prefix);
  f.get("filePath", r.file_path);
  f.get("fileMode", r.file_mode);
  r.identity = identity_of(f);
  return r;
}

OutputFile read_output_file(const JsonFields& f) {
  OutputFile o;
  f.get("filePattern", o.file_pattern);
  auto container = f.child("destination").child("container");
  o.container_url = unsigned_url(container, "containerUrl");
  container.get("path", o.path);
  o.identity = identity_of(container);
  container.get("uploadHeaders", o.upload_headers);
  f.child("uploadOptions").get("uploadCondition", o.upload_condition);
  return o;
}

// Array member `key`, each element read by `read`; absent gives none.
template <typename T>
std::vector<T> read_list(const JsonFields& f, std::string_view key, T (*read)(const JsonFields&)) {
  std::vector<T> out;
  const json* list = f.array(key);
  for (std::size_t i = 0; list && i < list->size() && f.ok(); ++i)
    out.push_back(read(f.element(key, i)));
  return out;
}

MultiInstanceSettings read_multi_instance(const JsonFields& f) {
  MultiInstanceSettings m;
  f.get("numberOfInstances", m.number_of_instances);
  f.get("coordinationCommandLine", m.coordination_command_line);
  return m;
}

}  // namespace

Result<Task> parse_task(const json& j, const std::string& account, const std::string& job) try {
  std::optional<Error> err;
  JsonFields f(j, "", err);
  Task t;
  t.account = account;
  t.job_id = job;
  read_task_basics(f, t);
  read_constraints(f.child("constraints"), t.constraints);
  t.resource_files = read_list(f, "resourceFiles", read_resource_file);
  t.output_files = read_list(f, "outputFiles", read_output_file);
  read_depends_on(f.child("dependsOn"), t.depends_on.task_ids);
  read_execution_info(f.child("executionInfo"), t.execution_info);
  if (f.has("nodeInfo")) t.node_info = read_node_info(f.child("nodeInfo"));
  if (f.has("multiInstanceSettings"))
    t.multi_instance = read_multi_instance(f.child("multiInstanceSettings"));
  if (err) return *err;
  return t;
} catch (const std::exception& e) {
  return make_error(ErrorKind::Parse, fmt::format("unreadable JSON: {}", e.what()));
}

Result<Subtask> parse_subtask(const json& j) try {
  std::optional<Error> err;
  JsonFields f(j, "", err);
  Subtask s;
  f.require("id", s.id);
  // Unknown state reads as running: not final, so the subtask is shown as still going.
  f.get_enum("state", s.state, TaskState::Running);
  f.get("stateTransitionTime", s.state_transition_time);
  read_execution_info(f, s.execution_info);
  if (f.has("nodeInfo")) s.node_info = read_node_info(f.child("nodeInfo"));
  if (err) return *err;
  return s;
} catch (const std::exception& e) {
  return make_error(ErrorKind::Parse, fmt::format("unreadable JSON: {}", e.what()));
}

}  // namespace trainyard::azure
