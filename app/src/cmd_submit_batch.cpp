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

}  // namespace

// The request bodies first, every one: a spec that cannot become JSON sends nothing.
Result<std::vector<JobBodies>> submit_bodies(const std::vector<spec::JobSpec>& specs) {
  std::vector<JobBodies> all;
  for (const auto& s : specs) {
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
    all.emplace_back(std::move(job), std::move(tasks));
  }
  return all;
}

Result<JobSent> send_job(azure::BatchClient& client, const JobBodies& bodies) {
  JobSent sent{bodies.first.value("id", "")};
  auto tasks = bodies.second;
  auto created = azure::create_job(client, bodies.first);
  if (!created && created.error().message.rfind("JobExists", 0) != 0) return created.error();
  if (!created) {
    auto have = existing_ids(client, sent.job);
    if (!have) return have.error();
    std::erase_if(tasks, [&](const nlohmann::json& t) { return have->count(t.value("id", "")); });
    sent.resumed = true;
    sent.existing = have->size();
  }
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

int submit_to_batch(const CliState& st, const std::string& account,
                    const std::vector<spec::JobSpec>& specs) {
  auto all = submit_bodies(specs);
  if (!all) return report(all.error());
  auto session = open_action(st, account, "submit", ActionKind::Change);
  if (!session) return report(session.error());
  for (const auto& bodies : *all) {
    auto sent = send_job(*session->client, bodies);
    const std::string id = bodies.first.value("id", "");
    if (!sent) return report_failure("submit job " + id, sent.error());
    if (sent->resumed)
      out::eprint("trainyard: note: job {} exists with {} task(s): adding the {} missing", id,
                  sent->existing, sent->missing);
    // The job and its tasks reach the cache now, so `ls jobs` and the TUI count them at once.
    refresh_job(*session, id);
    refresh_tasks(*session, id);
    out::print("{}", sent_line(*sent));
  }
  return kExitOk;
}

}  // namespace trainyard
