// `trainyard submit FILE --account A`: each job of the spec created on a Batch account and its
// tasks added in collections of at most 100. Task ids come from the spec, so a submission sent
// again after a lost answer adds no task twice.
#include "cmd_submit_batch.hpp"

#include <cstdio>
#include <set>

#include <fmt/format.h>

#include "action_util.hpp"
#include "app/cli.hpp"
#include "azure/batch_actions.hpp"
#include "output.hpp"

namespace trainyard {
namespace {

// The request bodies first, every one: a spec that cannot become JSON sends nothing.
Result<std::pair<nlohmann::json, std::vector<nlohmann::json>>> bodies(const spec::JobSpec& s) {
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
  return std::pair{std::move(job), std::move(tasks)};
}

// The ids a job has already (ids alone: a few bytes a task).
Result<std::set<std::string>> existing_ids(azure::BatchClient& c, const std::string& job) {
  std::set<std::string> ids;
  auto ok = c.list("/jobs/" + azure::url_encode(job) + "/tasks", {{"$select", "id"}},
                   [&](azure::ListPage& page) -> Result<void> {
                     for (const auto& t : page.items)
                       if (t.is_object() && t.contains("id") && t["id"].is_string())
                         ids.insert(t["id"].get<std::string>());
                     return {};
                   });
  if (!ok) return ok.error();
  return ids;
}

// A job that exists already is taken as this submission's own, sent before (an interrupted
// run, a lost answer): only the tasks it lacks are added, so nothing runs twice.
Result<std::vector<nlohmann::json>> create_or_resume(ActionSession& s, const nlohmann::json& job,
                                                     std::vector<nlohmann::json> tasks) {
  const std::string id = job.value("id", "");
  auto created = azure::create_job(*s.client, job);
  if (created) return tasks;
  if (created.error().message.rfind("JobExists", 0) != 0) return created.error();
  auto have = existing_ids(*s.client, id);
  if (!have) return have.error();
  std::erase_if(tasks, [&](const nlohmann::json& t) { return have->count(t.value("id", "")); });
  out::eprint("trainyard: note: job {} exists with {} task(s): adding the {} missing", id,
              have->size(), tasks.size());
  return tasks;
}

}  // namespace

int submit_to_batch(const CliState& st, const std::string& account,
                    const std::vector<spec::JobSpec>& specs) {
  std::vector<std::pair<nlohmann::json, std::vector<nlohmann::json>>> all;
  for (const auto& s : specs) {
    auto b = bodies(s);
    if (!b) return report(b.error());
    all.push_back(std::move(*b));
  }
  auto session = open_action(st, account, "submit", ActionKind::Change);
  if (!session) return report(session.error());
  for (const auto& [job, tasks] : all) {
    const std::string id = job.value("id", "");
    auto missing = create_or_resume(*session, job, tasks);
    if (!missing) return report_failure("submit job " + id, missing.error());
    auto added = azure::add_tasks(*session->client, id, *missing);
    if (!added) return report_failure("submit job " + id, added.error());
    // The job and its tasks reach the cache now, so `ls jobs` and the TUI count them at once.
    refresh_job(*session, id);
    refresh_tasks(*session, id);
    out::print("{}: {} task(s) added in {} request(s)", id, added->added, added->collections);
  }
  return kExitOk;
}

}  // namespace trainyard
