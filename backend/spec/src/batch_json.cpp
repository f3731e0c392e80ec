#include "spec/batch_json.hpp"

#include <unordered_map>

#include <fmt/format.h>

#include "batch_json_parts.hpp"

namespace trainyard::spec {

namespace {

enum class Shape { TaskArray, Combined, Task, Job };

Shape shape_of(const json& root) {
  if (root.is_array()) return Shape::TaskArray;
  if (root.contains("job") || root.contains("tasks")) return Shape::Combined;
  if (root.contains("commandLine") && !root.contains("poolInfo")) return Shape::Task;
  return Shape::Job;
}

std::vector<SpecTask> read_tasks(BatchReadContext& ctx, const json& arr, const std::string& ptr) {
  std::vector<SpecTask> tasks;
  tasks.reserve(arr.size());
  std::unordered_map<std::string, std::string> first;  // id → where it was first defined
  for (std::size_t i = 0; i < arr.size(); ++i) {
    std::string p = pointer_join(ptr, i);
    tasks.push_back(read_batch_task(ctx, arr[i], p));
    auto [it, fresh] = first.try_emplace(tasks.back().id, tasks.back().origin);
    if (!fresh) {
      throw SpecFailure{ctx.map.error(
          p + "/id",
          fmt::format("duplicate task id '{}' (first defined at {})", it->first, it->second))};
    }
  }
  return tasks;
}

// The job named on the command line wins over the file, as `az batch` does with --job-id.
void apply_job_id(const SourceMap& map, SpecJob& job, const BatchJsonOptions& opt,
                  std::string_view what) {
  if (opt.job_id) job.id = *opt.job_id;
  if (job.id.empty()) {
    throw SpecFailure{map.error(what == "job" ? "/id" : "",
                                fmt::format("{} needs a job id (give one with --job-id)", what))};
  }
  if (opt.job_id) check_batch_id(map, "/id", job.id);
}

void require_dependencies_flag(const SourceMap& map, JobSpec& spec, std::string_view job_ptr) {
  bool any = false;
  for (const auto& t : spec.tasks) any = any || t.dependsOn.has_value();
  if (!any) return;
  if (spec.job.usesTaskDependencies == false) {
    throw SpecFailure{map.error(std::string(job_ptr) + "/usesTaskDependencies",
                                "must be true when tasks use dependsOn")};
  }
  spec.job.usesTaskDependencies = true;
}

void read_combined(BatchReadContext& ctx, const json& root, JobSpec& spec,
                   const BatchJsonOptions& opt) {
  JsonFields f(ctx.map, root, "");
  if (const json* j = f.object_field("job")) spec.job = read_batch_job(ctx, *j, "/job");
  if (const json* t = f.array_field("tasks")) spec.tasks = read_tasks(ctx, *t, "/tasks");
  apply_job_id(ctx.map, spec.job, opt, root.contains("job") ? "job" : "a task list");
  require_dependencies_flag(ctx.map, spec, "/job");
  std::vector<RawField> none;
  keep_or_report(ctx, f, none, {}, "job file");
}

JobSpec read_root(const JsonSource& src, const BatchJsonOptions& opt) {
  JobSpec spec;
  BatchReadContext ctx{src.map, spec.unmapped};
  switch (shape_of(src.root)) {
    case Shape::TaskArray:
      if (src.root.empty()) throw SpecFailure{src.map.error("", "expected at least one task")};
      apply_job_id(src.map, spec.job, opt, "a task array");
      spec.tasks = read_tasks(ctx, src.root, "");
      break;
    case Shape::Task:
      apply_job_id(src.map, spec.job, opt, "a task");
      spec.tasks.push_back(read_batch_task(ctx, src.root, ""));
      break;
    case Shape::Combined:
      read_combined(ctx, src.root, spec, opt);
      return spec;
    case Shape::Job:
      require_object(src.map, src.root, "");
      spec.job = read_batch_job(ctx, src.root, "");
      apply_job_id(src.map, spec.job, opt, "job");
      break;
  }
  require_dependencies_flag(src.map, spec, "");
  return spec;
}

}  // namespace

Result<JobSpec> parse_batch_json(std::string_view file, std::string_view text,
                                 const BatchJsonOptions& options) {
  auto src = load_json_source(std::string(file), text);
  if (!src) return src.error();
  try {
    return read_root(*src, options);
  } catch (const SpecFailure& f) {
    return f.error;
  }
}

Result<JobSpec> load_batch_json(const std::filesystem::path& path,
                                const BatchJsonOptions& options) {
  auto text = read_source_file(path);
  if (!text) return text.error();
  return parse_batch_json(path.string(), *text, options);
}

}  // namespace trainyard::spec
