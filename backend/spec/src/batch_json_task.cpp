#include <array>
#include <climits>

#include <fmt/format.h>

#include "batch_json_parts.hpp"

namespace trainyard::spec {

namespace {

// Fields Batch reports on a task but does not take on create: a user who pastes the output of
// `az batch task show` learns they were ignored.
constexpr std::array<std::string_view, 12> kReadOnly = {
    "url",           "eTag",
    "lastModified",  "creationTime",
    "state",         "stateTransitionTime",
    "previousState", "previousStateTransitionTime",
    "executionInfo", "nodeInfo",
    "stats",         "odata.metadata"};

template <typename Names>
bool listed(const Names& names, std::string_view key) {
  for (auto n : names) {
    if (n == key) return true;
  }
  return false;
}

std::vector<RawJson> raw_objects(JsonFields& f, std::string_view key) {
  std::vector<RawJson> out;
  const json* arr = f.array_field(key);
  if (!arr) return out;
  for (std::size_t i = 0; i < arr->size(); ++i) {
    require_object(f.map(), (*arr)[i], pointer_join(f.at(key), i));
    out.push_back(raw((*arr)[i]));
  }
  return out;
}

std::optional<RawJson> raw_field(JsonFields& f, std::string_view key, bool array) {
  const json* v = array ? f.array_field(key) : f.object_field(key);
  return v ? std::optional<RawJson>(raw(*v)) : std::nullopt;
}

TaskIdRange read_range(const SourceMap& map, const json& v, const std::string& ptr) {
  require_object(map, v, ptr);
  JsonFields f(map, v, ptr);
  auto start = f.integer("start", 0, INT_MAX);
  auto end = f.integer("end", 0, INT_MAX);
  if (!start || !end) f.fail(start ? "end" : "start", "required: an integer ≥ 0");
  if (*end < *start) f.fail("end", fmt::format("expected ≥ start ({}), got {}", *start, *end));
  for (const auto& k : f.unread()) f.fail(k, "unknown field of a task id range");
  return TaskIdRange{*start, *end};
}

TaskDependencies read_depends(BatchReadContext& ctx, const json& v, const std::string& ptr) {
  JsonFields f(ctx.map, v, ptr);
  TaskDependencies d;
  if (const json* ids = f.array_field("taskIds")) {
    for (std::size_t i = 0; i < ids->size(); ++i) {
      std::string p = pointer_join(f.at("taskIds"), i);
      if (!(*ids)[i].is_string()) throw SpecFailure{ctx.map.error(p, "expected a task id string")};
      d.taskIds.push_back((*ids)[i].get<std::string>());
      check_batch_id(ctx.map, p, d.taskIds.back());
    }
  }
  if (const json* ranges = f.array_field("taskIdRanges")) {
    for (std::size_t i = 0; i < ranges->size(); ++i) {
      d.taskIdRanges.push_back(
          read_range(ctx.map, (*ranges)[i], pointer_join(f.at("taskIdRanges"), i)));
    }
  }
  std::vector<RawField> none;
  keep_or_report(ctx, f, none, {}, "dependsOn");
  return d;
}

MultiInstanceSettings read_multi(BatchReadContext& ctx, const json& v, const std::string& ptr) {
  JsonFields f(ctx.map, v, ptr);
  MultiInstanceSettings m;
  m.numberOfInstances = f.integer("numberOfInstances", 1, INT_MAX);
  m.coordinationCommandLine = f.str("coordinationCommandLine");
  m.commonResourceFiles = raw_objects(f, "commonResourceFiles");
  std::vector<RawField> none;
  keep_or_report(ctx, f, none, {}, "multiInstanceSettings");
  return m;
}

void read_task_options(BatchReadContext& ctx, JsonFields& f, SpecTask& t) {
  if (const json* c = f.object_field("constraints")) {
    t.constraints = read_constraints(ctx, *c, f.at("constraints"), true);
  }
  t.requiredSlots = f.integer("requiredSlots", 1, INT_MAX);
  if (const json* d = f.object_field("dependsOn"))
    t.dependsOn = read_depends(ctx, *d, f.at("dependsOn"));
  if (const json* m = f.object_field("multiInstanceSettings")) {
    t.multiInstanceSettings = read_multi(ctx, *m, f.at("multiInstanceSettings"));
  }
  t.resourceFiles = raw_objects(f, "resourceFiles");
  t.outputFiles = raw_objects(f, "outputFiles");
  if (const json* c = f.object_field("containerSettings")) {
    t.containerSettings = read_container_settings(ctx, *c, f.at("containerSettings"));
  }
  t.userIdentity = raw_field(f, "userIdentity", false);
  t.exitConditions = raw_field(f, "exitConditions", false);
  t.applicationPackageReferences = raw_field(f, "applicationPackageReferences", true);
}

}  // namespace

void keep_or_report(BatchReadContext& ctx, JsonFields& f, std::vector<RawField>& extra,
                    std::initializer_list<std::string_view> keep, std::string_view owner) {
  for (const auto& key : f.unread()) {
    const json* v = f.get(key);
    if (v && listed(keep, key)) {
      extra.emplace_back(key, raw(*v));
    } else if (listed(kReadOnly, key)) {
      ctx.unmapped.push_back({ctx.map.place(f.at(key)),
                              fmt::format("read-only field '{}' of a {}; ignored", key, owner)});
    } else {
      ctx.unmapped.push_back({ctx.map.place(f.at(key)),
                              fmt::format("unknown field '{}' of a {}; ignored", key, owner)});
    }
  }
}

Constraints read_constraints(BatchReadContext& ctx, const json& v, const std::string& ptr,
                             bool task) {
  JsonFields f(ctx.map, v, ptr);
  Constraints c;
  c.maxWallClockTime = f.duration("maxWallClockTime");
  c.maxTaskRetryCount = f.integer("maxTaskRetryCount", -1, INT_MAX);
  if (task) c.retentionTime = f.duration("retentionTime");
  std::vector<RawField> none;
  keep_or_report(ctx, f, none, {}, task ? "task's constraints" : "job's constraints");
  return c;
}

ContainerSettings read_container_settings(BatchReadContext& ctx, const json& v,
                                          const std::string& ptr) {
  JsonFields f(ctx.map, v, ptr);
  ContainerSettings c;
  c.imageName = f.required_str("imageName");
  c.containerRunOptions = f.str("containerRunOptions");
  c.workingDirectory =
      f.enumeration("workingDirectory", {"taskWorkingDirectory", "containerImageDefault"});
  keep_or_report(ctx, f, c.extra, {"registry", "containerHostBatchBindMounts"},
                 "containerSettings");
  return c;
}

SpecTask read_batch_task(BatchReadContext& ctx, const json& v, const std::string& ptr) {
  require_object(ctx.map, v, ptr);
  JsonFields f(ctx.map, v, ptr);
  SpecTask t;
  t.origin = ctx.map.location(ptr);
  t.id = f.required_str("id");
  check_batch_id(ctx.map, f.at("id"), t.id);
  t.displayName = f.str("displayName");
  t.commandLine = f.required_str("commandLine");
  if (const json* e = f.array_field("environmentSettings")) {
    t.environmentSettings = read_env_settings(ctx.map, *e, f.at("environmentSettings"));
  }
  read_task_options(ctx, f, t);
  keep_or_report(ctx, f, t.extra, {"affinityInfo", "authenticationTokenSettings"}, "task");
  return t;
}

}  // namespace trainyard::spec
