#include "spec_to_local.hpp"

#include "local/task_environment.hpp"
#include "local_container.hpp"

#include <filesystem>
#include <map>

#include <fmt/format.h>

namespace trainyard {
namespace {

// Job settings first, then the task's own over them (Batch's precedence).
void split_environment(const spec::JobSpec& spec, const spec::SpecTask& t, SubmitRequest& req) {
  std::map<std::string, spec::EnvSetting> merged;
  for (const auto& e : spec.job.commonEnvironmentSettings) merged[e.name] = e;
  for (const auto& e : t.environmentSettings) merged[e.name] = e;
  for (const auto& [name, e] : merged) {
    if (e.secret)
      req.environment.push_back(name + "=" + e.value);
    else
      req.environment_settings.push_back({name, e.value});
  }
}

std::vector<std::string> dependency_ids(const spec::SpecTask& t) {
  std::vector<std::string> out;
  if (!t.dependsOn) return out;
  out = t.dependsOn->taskIds;
  for (const auto& r : t.dependsOn->taskIdRanges)
    for (int64_t id = r.start; id <= r.end; ++id) out.push_back(std::to_string(id));
  return out;
}

Result<void> check_runnable(const spec::SpecTask& t, const std::string& job,
                            const ContainerChoice& c) {
  if (t.containerSettings && !c.on_host && c.runtime.empty())
    return make_error(
        ErrorKind::Usage,
        fmt::format("{}: task {}/{} needs container image {}, but neither `docker info` "
                    "nor `podman info` works here (--no-container runs it on this machine)",
                    t.origin, job, t.id, t.containerSettings->imageName));
  return ok_result();
}

// Runs the task's command inside its image when it names one. The container gets the variables
// the spec sets (secrets included), not the whole environment of whoever submitted it.
void wrap_in_container(const spec::JobSpec& spec, const spec::SpecTask& t, const ContainerChoice& c,
                       SubmitRequest& req) {
  if (!t.containerSettings || c.on_host) return;
  std::vector<std::string> names;
  for (const auto& e : spec.job.commonEnvironmentSettings) names.push_back(e.name);
  for (const auto& e : t.environmentSettings) names.push_back(e.name);
  req.command_line =
      container_command_line(c.runtime, *t.containerSettings, req.command_line, names);
}

SubmitRequest request_for(const spec::JobSpec& spec, const spec::SpecTask& t,
                          const std::string& workdir, const std::vector<std::string>& environment,
                          const ContainerChoice& containers) {
  SubmitRequest req;
  req.job = spec.job.id;
  req.id = t.id;
  req.display_name = t.displayName.value_or("");
  req.command_line = t.commandLine;
  req.gpus = t.requiredSlots.value_or(1);
  req.workdir = workdir;
  req.environment = environment;
  req.after = dependency_ids(t);
  if (t.exitConditions) req.exit_conditions = t.exitConditions->text;
  for (const auto& [name, value] : t.parameters) req.parameters.push_back({name, value});
  const auto& c = t.constraints ? t.constraints : spec.job.constraints;
  if (c) {
    req.max_retries = c->maxTaskRetryCount.value_or(0);
    req.max_wall = c->maxWallClockTime;
  }
  if (t.multiInstanceSettings) {
    req.instances = t.multiInstanceSettings->numberOfInstances.value_or(1);
    req.coordination_command = t.multiInstanceSettings->coordinationCommandLine.value_or("");
  }
  split_environment(spec, t, req);
  wrap_in_container(spec, t, containers, req);
  return req;
}

}  // namespace

spec::LoadOptions local_load_options(const std::string& data_dir) {
  spec::LoadOptions o;
  std::error_code ec;
  o.mount_root = node_dirs(std::filesystem::absolute(data_dir, ec).string()).mount_root;
  return o;
}

Job local_job(const spec::JobSpec& spec) {
  Job j;
  j.account = kLocalAccount;
  j.id = spec.job.id;
  j.display_name = spec.job.displayName.value_or("");
  j.priority = spec.job.priority.value_or(0);
  j.on_all_tasks_complete = spec.job.onAllTasksComplete.value_or("");
  j.on_task_failure = spec.job.onTaskFailure.value_or("");
  for (const auto& [name, value] : spec.job.metadata) j.metadata.push_back({name, value});
  return j;
}

ContainerChoice choose_containers(const std::vector<spec::JobSpec>& specs, bool on_host) {
  ContainerChoice c;
  c.on_host = on_host;
  bool images = false;
  for (const auto& s : specs)
    for (const auto& t : s.tasks) images = images || t.containerSettings.has_value();
  if (images && !on_host) c.runtime = local_container_runtime();
  return c;
}

Result<std::vector<SubmitRequest>> local_requests(const spec::JobSpec& spec,
                                                  const std::string& workdir,
                                                  const std::vector<std::string>& environment,
                                                  const ContainerChoice& containers) {
  std::vector<SubmitRequest> out;
  for (const auto& t : spec.tasks) {
    if (auto r = check_runnable(t, spec.job.id, containers); !r) return r.error();
    out.push_back(request_for(spec, t, workdir, environment, containers));
  }
  return out;
}

Result<std::vector<SubmitRequest>> local_requests(const spec::JobSpec& spec,
                                                  const std::string& workdir,
                                                  const std::vector<std::string>& environment) {
  return local_requests(spec, workdir, environment, choose_containers({spec}, false));
}

std::vector<std::string> local_caveats(const spec::JobSpec& spec) {
  std::vector<std::string> out;
  size_t files = 0;
  for (const auto& t : spec.tasks) files += t.resourceFiles.size() + t.outputFiles.size();
  if (files)
    out.push_back(
        fmt::format("{} resource/output file reference(s) are kept for Azure; locally the "
                    "command runs in its working directory without them",
                    files));
  if (spec.job.jobPreparationTask || spec.job.jobReleaseTask)
    out.push_back("job preparation/release tasks run only on Batch pools for now");
  return out;
}

}  // namespace trainyard
