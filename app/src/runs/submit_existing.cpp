#include "submit_existing.hpp"

#include <algorithm>

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

namespace {

// The runs `rm` removed from the job, as tasks a resubmission matches against.
Result<std::vector<spec::ExistingTask>> removed_tasks(Store& store, const std::string& job) {
  auto removed = store.removed_runs(kLocalAccount, job);
  if (!removed) return removed.error();
  std::vector<spec::ExistingTask> out;
  for (const auto& r : *removed) {
    std::vector<std::pair<std::string, std::string>> pairs;
    for (const auto& p : r.parameters) pairs.emplace_back(p.name, p.value);
    out.push_back({r.id, r.command_line, std::move(pairs)});
  }
  return out;
}

}  // namespace

Result<LocalPlan> plan_local_submission(Store& store, const spec::JobSpec& spec,
                                        std::vector<SubmitRequest> requests,
                                        const std::string& workdir,
                                        const std::vector<std::string>& environment,
                                        const ContainerChoice& containers, bool rerun_removed) {
  auto existing = local_existing_tasks(store, spec.job.id);
  if (!existing) return existing.error();
  // With rerun_removed they are queued like any missing task (cmd_submit forgets them after).
  Result<std::vector<spec::ExistingTask>> removed = std::vector<spec::ExistingTask>{};
  if (!rerun_removed) removed = removed_tasks(store, spec.job.id);
  if (!removed) return removed.error();
  // An id a later run took again is that run's now.
  std::erase_if(*removed, [&](const spec::ExistingTask& r) {
    return std::any_of(existing->begin(), existing->end(),
                       [&](const spec::ExistingTask& e) { return e.id == r.id; });
  });
  if (existing->empty() && removed->empty()) return LocalPlan{std::move(requests), 0, 0};
  // Compared as stored: the command a container task runs is the runtime's.
  std::vector<std::string> commands;
  for (const auto& r : requests) commands.push_back(r.command_line);
  auto missing = spec::missing_tasks(spec, *existing, commands);
  if (!missing) return missing.error();
  const size_t already = missing->already;
  if (!removed->empty()) {
    // The removed runs count as the job's too, so the spec's matching tasks stay out.
    existing->insert(existing->end(), removed->begin(), removed->end());
    missing = spec::missing_tasks(spec, *existing, commands);
    if (!missing) return missing.error();
  }
  auto reqs = local_requests(missing->spec, workdir, environment, containers);
  if (!reqs) return reqs.error();
  return LocalPlan{std::move(*reqs), already, missing->already - already};
}

}  // namespace trainyard
