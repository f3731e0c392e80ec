#include "submit_existing.hpp"

namespace trainyard {

Result<std::vector<spec::ExistingTask>> local_existing_tasks(Store& store, const std::string& job) {
  TaskQuery q;
  q.account = kLocalAccount;
  q.job = job;
  auto tasks = store.tasks(q);
  if (!tasks) return tasks.error();
  std::vector<spec::ExistingTask> out;
  for (const auto& t : *tasks) {
    auto params = store.task_parameters(kLocalAccount, job, t.id);
    if (!params) return params.error();
    std::vector<std::pair<std::string, std::string>> pairs;
    for (const auto& p : *params) pairs.emplace_back(p.name, p.value);
    out.push_back({t.id, t.command_line, std::move(pairs)});
  }
  return out;
}

Result<std::vector<spec::ExistingTask>> batch_existing_tasks(azure::BatchClient& client,
                                                             const std::string& job) {
  auto tasks = client.tasks(job, "", "id,commandLine");
  if (!tasks) return tasks.error();
  std::vector<spec::ExistingTask> out;
  for (const auto& t : *tasks) out.push_back({t.id, t.command_line, std::nullopt});
  return out;
}

Result<LocalPlan> plan_local_submission(Store& store, const spec::JobSpec& spec,
                                        std::vector<SubmitRequest> requests,
                                        const std::string& workdir,
                                        const std::vector<std::string>& environment,
                                        const ContainerChoice& containers) {
  auto existing = local_existing_tasks(store, spec.job.id);
  if (!existing) return existing.error();
  if (existing->empty()) return LocalPlan{std::move(requests), 0};
  // Compared as stored: the command a container task runs is the runtime's.
  std::vector<std::string> commands;
  for (const auto& r : requests) commands.push_back(r.command_line);
  auto missing = spec::missing_tasks(spec, *existing, commands);
  if (!missing) return missing.error();
  auto reqs = local_requests(missing->spec, workdir, environment, containers);
  if (!reqs) return reqs.error();
  return LocalPlan{std::move(*reqs), missing->already};
}

}  // namespace trainyard
