// A spec's jobs sent to a Batch account: each job created and its tasks added in collections of
// at most 100. A submission sent again (after a lost answer, or grown) adds only the tasks the
// job lacks.
#include "batch_submit.hpp"

#include <optional>

#include <fmt/format.h>

#include "azure/batch_actions.hpp"
#include "submit_existing.hpp"

namespace trainyard {
namespace {

// The request bodies of one job: its own and its tasks'.
Result<JobBodies> job_bodies(const spec::JobSpec& s) {
  auto job =
      nlohmann::json::parse(spec::job_to_wire_json(s.job, spec::Secrets::Reveal), nullptr, false);
  if (job.is_discarded())
    return make_error(ErrorKind::Internal, "job " + s.job.id + ": unreadable request body");
  std::vector<nlohmann::json> tasks;
  for (const auto& t : s.tasks) {
    auto body =
        nlohmann::json::parse(spec::task_to_wire_json(t, spec::Secrets::Reveal), nullptr, false);
    if (body.is_discarded())
      return make_error(ErrorKind::Internal, "task " + t.id + ": unreadable request body");
    tasks.push_back(std::move(body));
  }
  return JobBodies{std::move(job), std::move(tasks)};
}

// The task bodies of what the job lacks (spec::missing_tasks: new seeds continue the job's
// numbering), from one paged list of its ids and command lines.
Result<std::vector<nlohmann::json>> missing_bodies(azure::BatchClient& client,
                                                   const spec::JobSpec& spec, JobSent& sent) {
  auto have = batch_existing_tasks(client, sent.job);
  if (!have) return have.error();
  std::vector<std::string> commands;
  for (const auto& t : spec.tasks) commands.push_back(t.commandLine);
  auto missing = spec::missing_tasks(spec, *have, commands);
  if (!missing) return missing.error();
  auto b = job_bodies(missing->spec);
  if (!b) return b.error();
  sent.resumed = true;
  sent.existing = have->size();
  return std::move(b->second);
}

}  // namespace

// The request bodies first, every one: a spec that cannot become JSON sends nothing.
Result<std::vector<JobBodies>> submit_bodies(const std::vector<spec::JobSpec>& specs) {
  std::vector<JobBodies> all;
  for (const auto& s : specs) {
    auto b = job_bodies(s);
    if (!b) return b.error();
    all.push_back(std::move(*b));
  }
  return all;
}

Result<JobSent> send_job(azure::BatchClient& client, const spec::JobSpec& spec,
                         const JobBodies& bodies, const TaskInputs* inputs) {
  JobSent sent{bodies.first.value("id", "")};
  auto tasks = bodies.second;
  auto created = azure::create_job(client, bodies.first);
  if (!created && created.error().message.rfind("JobExists", 0) != 0) return created.error();
  if (!created) {
    auto missing = missing_bodies(client, spec, sent);
    if (!missing) return missing.error();
    tasks = std::move(*missing);
  }
  if (inputs)
    for (auto& t : tasks) attach_task_inputs(t, *inputs);
  sent.missing = tasks.size();
  auto added = azure::add_tasks(client, sent.job, tasks);
  if (!added) return added.error();
  sent.added = added->added;
  sent.collections = added->collections;
  return sent;
}

std::string sent_line(const JobSent& sent) {
  return fmt::format("{}: {} task(s) added in {} request(s)", sent.job, sent.added,
                     sent.collections);
}

}  // namespace trainyard
