#include <climits>

#include "batch_json_parts.hpp"

namespace trainyard::spec {

namespace {

JobAuxTask read_aux_task(BatchReadContext& ctx, const json& v, const std::string& ptr,
                         std::string_view owner) {
  JsonFields f(ctx.map, v, ptr);
  JobAuxTask t;
  t.id = f.str("id");
  if (t.id) check_batch_id(ctx.map, f.at("id"), *t.id);
  t.commandLine = f.required_str("commandLine");
  if (const json* e = f.array_field("environmentSettings")) {
    t.environmentSettings = read_env_settings(ctx.map, *e, f.at("environmentSettings"));
  }
  if (const json* c = f.object_field("containerSettings")) {
    t.containerSettings = read_container_settings(ctx, *c, f.at("containerSettings"));
  }
  if (const json* r = f.array_field("resourceFiles")) {
    for (const auto& item : *r) t.resourceFiles.push_back(raw(item));
  }
  keep_or_report(ctx, f, t.extra,
                 {"constraints", "waitForSuccess", "userIdentity", "rerunOnNodeRebootAfterSuccess",
                  "maxWallClockTime", "retentionTime"},
                 owner);
  return t;
}

PoolInfo read_pool_info(BatchReadContext& ctx, const json& v, const std::string& ptr) {
  JsonFields f(ctx.map, v, ptr);
  PoolInfo p;
  p.poolId = f.str("poolId");
  if (p.poolId) check_batch_id(ctx.map, f.at("poolId"), *p.poolId);
  if (const json* a = f.object_field("autoPoolSpecification")) p.autoPoolSpecification = raw(*a);
  std::vector<RawField> none;
  keep_or_report(ctx, f, none, {}, "poolInfo");
  return p;
}

std::vector<std::pair<std::string, std::string>> read_metadata(const SourceMap& map,
                                                               const json& arr,
                                                               const std::string& ptr) {
  std::vector<std::pair<std::string, std::string>> out;
  for (std::size_t i = 0; i < arr.size(); ++i) {
    std::string p = pointer_join(ptr, i);
    require_object(map, arr[i], p);
    JsonFields f(map, arr[i], p);
    out.emplace_back(f.required_str("name"), f.str("value").value_or(""));
    for (const auto& k : f.unread()) f.fail(k, "unknown field of a metadata item");
  }
  return out;
}

void read_job_tasks(BatchReadContext& ctx, JsonFields& f, SpecJob& j) {
  if (const json* p = f.object_field("jobPreparationTask")) {
    j.jobPreparationTask = read_aux_task(ctx, *p, f.at("jobPreparationTask"), "jobPreparationTask");
  }
  if (const json* r = f.object_field("jobReleaseTask")) {
    j.jobReleaseTask = read_aux_task(ctx, *r, f.at("jobReleaseTask"), "jobReleaseTask");
  }
}

void read_job_options(BatchReadContext& ctx, JsonFields& f, SpecJob& j) {
  j.displayName = f.str("displayName");
  j.priority = f.integer("priority", -1000, 1000);
  if (const json* p = f.object_field("poolInfo"))
    j.poolInfo = read_pool_info(ctx, *p, f.at("poolInfo"));
  if (const json* c = f.object_field("constraints")) {
    j.constraints = read_constraints(ctx, *c, f.at("constraints"), false);
  }
  if (const json* e = f.array_field("commonEnvironmentSettings")) {
    j.commonEnvironmentSettings = read_env_settings(ctx.map, *e, f.at("commonEnvironmentSettings"));
  }
  read_job_tasks(ctx, f, j);
  j.onAllTasksComplete = f.enumeration("onAllTasksComplete", {"noaction", "terminatejob"});
  j.onTaskFailure = f.enumeration("onTaskFailure", {"noaction", "performexitoptionsjobaction"});
  j.usesTaskDependencies = f.boolean("usesTaskDependencies");
  if (const json* m = f.array_field("metadata"))
    j.metadata = read_metadata(ctx.map, *m, f.at("metadata"));
}

}  // namespace

SpecJob read_batch_job(BatchReadContext& ctx, const json& v, const std::string& ptr) {
  require_object(ctx.map, v, ptr);
  JsonFields f(ctx.map, v, ptr);
  SpecJob j;
  j.id = f.str("id").value_or("");
  if (!j.id.empty()) check_batch_id(ctx.map, f.at("id"), j.id);
  read_job_options(ctx, f, j);
  keep_or_report(
      ctx, f, j.extra,
      {"jobManagerTask", "networkConfiguration", "allowTaskPreemption", "maxParallelTasks"}, "job");
  return j;
}

}  // namespace trainyard::spec
