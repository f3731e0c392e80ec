// The steps of sending a spec's jobs to a Batch (or emulator) account, shared by `submit
// --account A` and the TUI's `:submit`.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "azure/batch_client.hpp"
#include "core/result.hpp"
#include "spec/spec_model.hpp"
#include "task_inputs.hpp"

namespace trainyard {

/// One job's request bodies: the job and its tasks.
using JobBodies = std::pair<nlohmann::json, std::vector<nlohmann::json>>;

/// Every spec's request bodies; an error, and nothing to send, when one cannot be built.
Result<std::vector<JobBodies>> submit_bodies(const std::vector<spec::JobSpec>& specs);

/// What sending one job did.
struct JobSent {
  std::string job;
  bool resumed = false;  ///< the job existed: only the tasks it lacked were added
  size_t existing = 0;   ///< with `resumed`: the tasks it had
  size_t missing = 0;    ///< the tasks sent: all of the spec's, or those the job lacked
  int added = 0, collections = 0;
};

/// Creates the job of `spec` (one that exists already is taken as this submission's own, sent
/// before or grown since: only the tasks it lacks are added, so nothing runs twice, and new
/// seeds continue the job's numbering, see spec::missing_tasks) and adds its tasks, 100 a
/// request. `bodies` are the spec's, from submit_bodies; with `inputs`, every task sent gets them
/// (attach_task_inputs).
Result<JobSent> send_job(azure::BatchClient& client, const spec::JobSpec& spec,
                         const JobBodies& bodies, const TaskInputs* inputs = nullptr);

/// `<job>: N task(s) added in M request(s)`.
std::string sent_line(const JobSent& sent);

}  // namespace trainyard
