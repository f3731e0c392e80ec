// One Shipyard task mapping → a SpecTask template: command, environment, constraints, GPUs,
// dependencies, multi-instance settings, resource files and container image.
#include <nlohmann/json.hpp>

#include <functional>
#include <map>

#include "shipyard_internal.hpp"

namespace trainyard::spec::shipyard_detail {
namespace {

using Handler = std::function<Result<void>(Context&, const At&, TaskDraft&)>;

Constraints& constraints(SpecTask& t) {
  if (!t.constraints) t.constraints = Constraints{};
  return *t.constraints;
}

void note(Context& ctx, const At& at, std::string what) {
  ctx.unmapped.push_back(Unmapped{ctx.doc.place(at), std::move(what)});
}

// Shipyard `{file_path, blob_source, file_mode}` → a Batch ResourceFile.
Result<std::vector<RawJson>> read_resource_files(const Doc& doc, const At& at) {
  if (auto ok = doc.expect_seq(at); !ok) return ok.error();
  std::vector<RawJson> out;
  for (std::size_t i = 0; i < at.node.size(); ++i) {
    const At rf = doc.item(at, i);
    if (auto ok = doc.expect_map(rf); !ok) return ok.error();
    auto path = doc.text(doc.child(rf, "file_path"));
    if (!path) return path.error();
    auto url = doc.text(doc.child(rf, "blob_source"));
    if (!url) return url.error();
    nlohmann::json j{{"filePath", *path}, {"httpUrl", *url}};
    if (const At mode = doc.child(rf, "file_mode"); present(mode)) {
      auto m = doc.text(mode);
      if (!m) return m.error();
      j["fileMode"] = *m;
    }
    out.push_back(RawJson{j.dump()});
  }
  return out;
}

Result<void> on_command(Context& ctx, const At& v, TaskDraft& d) {
  auto s = ctx.doc.text(v);
  if (!s) return s.error();
  d.task.commandLine = *s;
  return ok_result();
}

Result<void> on_id(Context& ctx, const At& v, TaskDraft& d) {
  auto s = ctx.doc.text(v);
  if (!s) return s.error();
  if (s->empty() || s->size() > 64) return ctx.doc.error(v, "expected 1 to 64 characters");
  d.task.id = *s;
  return ok_result();
}

Result<void> on_env(Context& ctx, const At& v, TaskDraft& d) {
  auto env = read_env(ctx.doc, v);
  if (!env) return env.error();
  d.task.environmentSettings = std::move(*env);
  return ok_result();
}

Result<void> on_retries(Context& ctx, const At& v, TaskDraft& d) {
  auto n = ctx.doc.integer(v);
  if (!n) return n.error();
  if (*n < -1 || *n > 1000000) return ctx.doc.error(v, "expected -1 (unlimited) or a count");
  constraints(d.task).maxTaskRetryCount = static_cast<int>(*n);
  return ok_result();
}

Result<void> on_wall_time(Context& ctx, const At& v, TaskDraft& d) {
  auto t = read_timespan(ctx.doc, v);
  if (!t) return t.error();
  constraints(d.task).maxWallClockTime = *t;
  return ok_result();
}

Result<void> on_retention(Context& ctx, const At& v, TaskDraft& d) {
  auto t = read_timespan(ctx.doc, v);
  if (!t) return t.error();
  constraints(d.task).retentionTime = *t;
  return ok_result();
}

// `gpu: true` asked Shipyard for the NVIDIA runtime, not for a GPU count.
Result<void> on_gpu(Context& ctx, const At& v, TaskDraft& d) {
  auto b = ctx.doc.boolean(v);
  if (!b) return b.error();
  (void)d;
  if (*b)
    note(ctx, v, "gpu: true (NVIDIA container runtime) has no Batch field; requiredSlots stays 1");
  return ok_result();
}

Result<void> on_gpus(Context& ctx, const At& v, TaskDraft& d) {
  auto s = ctx.doc.scalar(v);
  if (!s) return s.error();
  if (const auto* n = std::get_if<int64_t>(&*s); n != nullptr && *n >= 1 && *n <= 256) {
    d.task.requiredSlots = static_cast<int>(*n);
    return ok_result();
  }
  if (py_str(*s) == "all" || py_str(*s) == "disable") {
    note(ctx, v, "gpus: " + py_str(*s) + " is a container runtime setting; requiredSlots stays 1");
    return ok_result();
  }
  return ctx.doc.error(v, "expected a GPU count, 'all' or 'disable'");
}

TaskDependencies& deps(SpecTask& t) {
  if (!t.dependsOn) t.dependsOn = TaskDependencies{};
  return *t.dependsOn;
}

Result<void> on_depends_on(Context& ctx, const At& v, TaskDraft& d) {
  auto ids = ctx.doc.values(v);
  if (!ids) return ids.error();
  for (const auto& id : *ids) deps(d.task).taskIds.push_back(py_str(id));
  return ok_result();
}

Result<void> on_depends_on_range(Context& ctx, const At& v, TaskDraft& d) {
  if (auto ok = ctx.doc.expect_seq(v); !ok) return ok.error();
  if (v.node.size() != 2) return ctx.doc.error(v, "expected exactly 2 integers [start, end]");
  auto start = ctx.doc.integer(ctx.doc.item(v, 0));
  if (!start) return start.error();
  auto end = ctx.doc.integer(ctx.doc.item(v, 1));
  if (!end) return end.error();
  if (*start > *end) return ctx.doc.error(v, "expected start <= end");
  deps(d.task).taskIdRanges.push_back(TaskIdRange{*start, *end});
  return ok_result();
}

Result<void> on_resource_files(Context& ctx, const At& v, TaskDraft& d) {
  auto rfs = read_resource_files(ctx.doc, v);
  if (!rfs) return rfs.error();
  d.task.resourceFiles = std::move(*rfs);
  return ok_result();
}

ContainerSettings& container(SpecTask& t) {
  if (!t.containerSettings) t.containerSettings = ContainerSettings{};
  return *t.containerSettings;
}

Result<void> on_image(Context& ctx, const At& v, TaskDraft& d) {
  auto s = ctx.doc.text(v);
  if (!s) return s.error();
  container(d.task).imageName = *s;
  return ok_result();
}

Result<void> on_run_options(Context& ctx, const At& v, TaskDraft& d) {
  auto opts = ctx.doc.values(v);
  if (!opts) return opts.error();
  std::string joined;
  for (const auto& o : *opts) joined += (joined.empty() ? "" : " ") + py_str(o);
  container(d.task).containerRunOptions = joined;
  return ok_result();
}

Result<void> on_working_dir(Context& ctx, const At& v, TaskDraft& d) {
  auto s = ctx.doc.text(v);
  if (!s) return s.error();
  if (*s != "batch" && *s != "container")
    return ctx.doc.error(v, "expected 'batch' or 'container'");
  container(d.task).workingDirectory =
      *s == "batch" ? "taskWorkingDirectory" : "containerImageDefault";
  return ok_result();
}

Result<int> num_instances(Context& ctx, const At& v) {
  auto s = ctx.doc.scalar(v);
  if (!s) return s.error();
  if (const auto* n = std::get_if<int64_t>(&*s)) {
    if (*n < 1 || *n > 10000) return ctx.doc.error(v, "expected an instance count >= 1");
    return static_cast<int>(*n);
  }
  const std::string name = py_str(*s);
  if (name != "pool_current_dedicated" && name != "pool_current_low_priority" &&
      name.rfind("pool_specification_vm_count", 0) != 0) {
    return ctx.doc.error(v,
                         "expected an integer or pool_current_dedicated, "
                         "pool_current_low_priority, pool_specification_vm_count_*");
  }
  if (!ctx.options.pool_node_count) {
    return ctx.doc.error(v, name + " needs the pool's node count: pass pool_node_count");
  }
  return *ctx.options.pool_node_count;
}

Result<void> on_multi_instance(Context& ctx, const At& v, TaskDraft& d) {
  if (auto ok = ctx.doc.expect_map(v); !ok) return ok.error();
  MultiInstanceSettings mi;
  auto n = num_instances(ctx, ctx.doc.child(v, "num_instances"));
  if (!n) return n.error();
  mi.numberOfInstances = *n;
  for (const auto& kv : v.node) {
    const std::string key = kv.first.Scalar();
    const At field = ctx.doc.child(v, key);
    if (key == "num_instances" || !present(field)) continue;
    if (key == "coordination_command") {
      auto s = ctx.doc.text(field);
      if (!s) return s.error();
      mi.coordinationCommandLine = *s;
    } else if (key == "resource_files") {
      auto rfs = read_resource_files(ctx.doc, field);
      if (!rfs) return rfs.error();
      mi.commonResourceFiles = std::move(*rfs);
    } else {
      note(ctx, field, "multi_instance." + key + " has no Batch equivalent; ignored");
    }
  }
  d.task.multiInstanceSettings = std::move(mi);
  return ok_result();
}

Result<void> on_factory(Context& ctx, const At& v, TaskDraft& d) {
  return expand_factory(ctx, v, d);
}

const std::map<std::string, Handler>& handlers() {
  static const std::map<std::string, Handler> table{
      {"id", on_id},
      {"command", on_command},
      {"environment_variables", on_env},
      {"max_task_retries", on_retries},
      {"max_wall_time", on_wall_time},
      {"retention_time", on_retention},
      {"gpu", on_gpu},
      {"gpus", on_gpus},
      {"depends_on", on_depends_on},
      {"depends_on_range", on_depends_on_range},
      {"multi_instance", on_multi_instance},
      {"resource_files", on_resource_files},
      {"docker_image", on_image},
      {"image", on_image},
      {"additional_docker_run_options", on_run_options},
      {"default_working_dir", on_working_dir},
      {"task_factory", on_factory},
  };
  return table;
}

bool forbidden_in_merge(const std::string& key) {
  return key == "depends_on" || key == "depends_on_range" || key == "multi_instance" ||
         key == "task_factory";
}

Result<void> read_field(Context& ctx, const At& task, const std::string& key, TaskDraft& d,
                        bool merge_task) {
  const At field = ctx.doc.child(task, key);
  if (!present(field)) return ok_result();  // Shipyard reads null as "not set"
  if (merge_task && forbidden_in_merge(key)) {
    return ctx.doc.error(field, "not allowed in merge_task");
  }
  const auto it = handlers().find(key);
  if (it == handlers().end()) {
    note(ctx, field, "Shipyard task field '" + key + "' has no Batch equivalent; ignored");
    return ok_result();
  }
  return it->second(ctx, field, d);
}

}  // namespace

Result<TaskDraft> read_task(Context& ctx, const At& at, bool merge_task) {
  if (auto ok = ctx.doc.expect_map(at); !ok) return ok.error();
  TaskDraft d;
  d.at = at;
  d.id_prefix = ctx.id_prefix;
  d.id_width = ctx.id_width;
  d.task.origin = ctx.doc.location(at);
  d.args.emplace_back();  // a plain task is one task with no arguments
  for (const auto& kv : at.node) {
    if (auto ok = read_field(ctx, at, kv.first.Scalar(), d, merge_task); !ok) return ok.error();
  }
  if (!present(ctx.doc.child(at, "command"))) {
    return ctx.doc.error(ctx.doc.child(at, "command"), "required: expected the command to run");
  }
  if (!present(ctx.doc.child(at, "gpus")) && present(ctx.job_gpus)) {
    if (auto ok = on_gpus(ctx, ctx.job_gpus, d); !ok) return ok.error();
  }
  if (d.from_factory && !d.task.id.empty()) {
    return ctx.doc.error(ctx.doc.child(at, "id"),
                         "a task_factory task may not set id: every generated task would share it");
  }
  return d;
}

Result<Duration> read_timespan(const Doc& doc, const At& at) {
  auto s = doc.text(at);
  if (!s) return s.error();
  auto d = parse_shipyard_timespan(*s);
  if (!d) return doc.error(at, d.error().message);
  return d;
}

Result<std::vector<EnvSetting>> read_env(const Doc& doc, const At& at) {
  if (auto ok = doc.expect_map(at); !ok) return ok.error();
  std::vector<EnvSetting> out;
  for (const auto& kv : at.node) {
    const std::string name = kv.first.Scalar();
    const At value = doc.child(at, name);
    if (!present(value)) {
      out.push_back(EnvSetting{name, "", false});
      continue;
    }
    auto text = doc.text(value);
    if (!text) return text.error();
    out.push_back(EnvSetting{name, *text, false});
  }
  return out;
}

Result<void> read_autogen_id(const Doc& doc, const At& at, std::string& prefix, int& width) {
  if (auto ok = doc.expect_map(at); !ok) return ok.error();
  if (const At p = doc.child(at, "prefix"); present(p)) {
    auto s = doc.text(p);
    if (!s) return s.error();
    prefix = *s;
  }
  if (const At w = doc.child(at, "zfill_width"); present(w)) {
    auto n = doc.integer(w);
    if (!n) return n.error();
    if (*n < 0 || *n > 20) return doc.error(w, "expected a width from 0 to 20");
    width = static_cast<int>(*n);
  }
  return ok_result();
}

}  // namespace trainyard::spec::shipyard_detail
