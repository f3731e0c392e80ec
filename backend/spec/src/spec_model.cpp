#include "spec/spec_model.hpp"

#include <nlohmann/json.hpp>

namespace trainyard::spec {

namespace {

// Ordered so that the dry-run output reads in the order of the Batch documentation.
using json = nlohmann::ordered_json;

json parse_raw(const RawJson& r) {
  return json::parse(r.text);
}

json raw_array(const std::vector<RawJson>& items) {
  json out = json::array();
  for (const auto& r : items) out.push_back(parse_raw(r));
  return out;
}

void put_extra(json& out, const std::vector<RawField>& extra) {
  for (const auto& [name, value] : extra) out[name] = parse_raw(value);
}

json env_json(const std::vector<EnvSetting>& env, Secrets secrets) {
  json out = json::array();
  for (const auto& e : env) {
    json item = {{"name", e.name}};
    // A redacted secret keeps its name so the user sees it will be set.
    if (!e.secret || secrets == Secrets::Reveal) item["value"] = e.value;
    out.push_back(std::move(item));
  }
  return out;
}

json constraints_json(const Constraints& c) {
  json out = json::object();
  if (c.maxWallClockTime) out["maxWallClockTime"] = format_iso_duration(*c.maxWallClockTime);
  if (c.retentionTime) out["retentionTime"] = format_iso_duration(*c.retentionTime);
  if (c.maxTaskRetryCount) out["maxTaskRetryCount"] = *c.maxTaskRetryCount;
  return out;
}

json container_json(const ContainerSettings& c) {
  json out = {{"imageName", c.imageName}};
  if (c.containerRunOptions) out["containerRunOptions"] = *c.containerRunOptions;
  if (c.workingDirectory) out["workingDirectory"] = *c.workingDirectory;
  put_extra(out, c.extra);
  return out;
}

json depends_json(const TaskDependencies& d) {
  json out = json::object();
  if (!d.taskIds.empty()) out["taskIds"] = d.taskIds;
  if (d.taskIdRanges.empty()) return out;
  out["taskIdRanges"] = json::array();
  for (const auto& r : d.taskIdRanges)
    out["taskIdRanges"].push_back({{"start", r.start}, {"end", r.end}});
  return out;
}

json multi_instance_json(const MultiInstanceSettings& m) {
  json out = json::object();
  if (m.numberOfInstances) out["numberOfInstances"] = *m.numberOfInstances;
  if (m.coordinationCommandLine) out["coordinationCommandLine"] = *m.coordinationCommandLine;
  if (!m.commonResourceFiles.empty()) out["commonResourceFiles"] = raw_array(m.commonResourceFiles);
  return out;
}

void put_task_options(json& out, const SpecTask& t) {
  if (t.constraints) out["constraints"] = constraints_json(*t.constraints);
  if (t.requiredSlots) out["requiredSlots"] = *t.requiredSlots;
  if (t.dependsOn) out["dependsOn"] = depends_json(*t.dependsOn);
  if (t.multiInstanceSettings)
    out["multiInstanceSettings"] = multi_instance_json(*t.multiInstanceSettings);
  if (!t.resourceFiles.empty()) out["resourceFiles"] = raw_array(t.resourceFiles);
  if (!t.outputFiles.empty()) out["outputFiles"] = raw_array(t.outputFiles);
  if (t.containerSettings) out["containerSettings"] = container_json(*t.containerSettings);
  if (t.userIdentity) out["userIdentity"] = parse_raw(*t.userIdentity);
  if (t.exitConditions) out["exitConditions"] = parse_raw(*t.exitConditions);
  if (t.applicationPackageReferences) {
    out["applicationPackageReferences"] = parse_raw(*t.applicationPackageReferences);
  }
  put_extra(out, t.extra);
}

json task_json(const SpecTask& t, Secrets secrets) {
  json out = {{"id", t.id}};
  if (t.displayName) out["displayName"] = *t.displayName;
  out["commandLine"] = t.commandLine;
  if (!t.environmentSettings.empty()) {
    out["environmentSettings"] = env_json(t.environmentSettings, secrets);
  }
  put_task_options(out, t);
  return out;
}

json aux_task_json(const JobAuxTask& t, Secrets secrets) {
  json out = json::object();
  if (t.id) out["id"] = *t.id;
  out["commandLine"] = t.commandLine;
  if (!t.environmentSettings.empty()) {
    out["environmentSettings"] = env_json(t.environmentSettings, secrets);
  }
  if (t.containerSettings) out["containerSettings"] = container_json(*t.containerSettings);
  if (!t.resourceFiles.empty()) out["resourceFiles"] = raw_array(t.resourceFiles);
  put_extra(out, t.extra);
  return out;
}

json pool_info_json(const PoolInfo& p) {
  json out = json::object();
  if (p.poolId) out["poolId"] = *p.poolId;
  if (p.autoPoolSpecification) out["autoPoolSpecification"] = parse_raw(*p.autoPoolSpecification);
  return out;
}

json metadata_json(const std::vector<std::pair<std::string, std::string>>& metadata) {
  json out = json::array();
  for (const auto& [name, value] : metadata) out.push_back({{"name", name}, {"value", value}});
  return out;
}

void put_job_tasks(json& out, const SpecJob& j, Secrets secrets) {
  if (j.jobPreparationTask)
    out["jobPreparationTask"] = aux_task_json(*j.jobPreparationTask, secrets);
  if (j.jobReleaseTask) out["jobReleaseTask"] = aux_task_json(*j.jobReleaseTask, secrets);
}

json job_json(const SpecJob& j, Secrets secrets) {
  json out = {{"id", j.id}};
  if (j.displayName) out["displayName"] = *j.displayName;
  if (j.priority) out["priority"] = *j.priority;
  out["poolInfo"] = pool_info_json(j.poolInfo);
  if (j.constraints) out["constraints"] = constraints_json(*j.constraints);
  if (!j.commonEnvironmentSettings.empty()) {
    out["commonEnvironmentSettings"] = env_json(j.commonEnvironmentSettings, secrets);
  }
  put_job_tasks(out, j, secrets);
  if (j.onAllTasksComplete) out["onAllTasksComplete"] = *j.onAllTasksComplete;
  if (j.onTaskFailure) out["onTaskFailure"] = *j.onTaskFailure;
  if (j.usesTaskDependencies) out["usesTaskDependencies"] = *j.usesTaskDependencies;
  if (!j.metadata.empty()) out["metadata"] = metadata_json(j.metadata);
  put_extra(out, j.extra);
  return out;
}

}  // namespace

std::string to_wire_json(const JobSpec& spec) {
  json out = {{"job", job_json(spec.job, Secrets::Redact)}, {"tasks", json::array()}};
  for (const auto& t : spec.tasks) out["tasks"].push_back(task_json(t, Secrets::Redact));
  out["unmapped"] = json::array();
  for (const auto& u : spec.unmapped)
    out["unmapped"].push_back({{"place", u.place}, {"what", u.what}});
  // Replace rather than throw on invalid UTF-8 from YAML input: a dry-run must always print.
  return out.dump(2, ' ', false, json::error_handler_t::replace);
}

std::string job_to_wire_json(const SpecJob& job, Secrets secrets) {
  return job_json(job, secrets).dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string task_to_wire_json(const SpecTask& task, Secrets secrets) {
  return task_json(task, secrets).dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace trainyard::spec
