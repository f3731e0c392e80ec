// Jobs: add, list, get, patch/update, delete, disable, enable, terminate, task counts.
#include <fmt/format.h>

#include <strings.h>

#include "job_api.hpp"
#include "local/engine.hpp"
#include "runner.hpp"

namespace trainyard::emu {

namespace {

const char* const kJobSpecProperties[] = {
    "displayName",
    "priority",
    "maxParallelTasks",
    "allowTaskPreemption",
    "constraints",
    "jobManagerTask",
    "jobPreparationTask",
    "jobReleaseTask",
    "commonEnvironmentSettings",
    "poolInfo",
    "onAllTasksComplete",
    "onTaskFailure",
    "metadata",
    "usesTaskDependencies",
    "networkConfiguration",
};

bool valid_enum(const nlohmann::json& body, const char* name,
                std::initializer_list<const char*> values) {
  if (!body.contains(name)) return true;
  if (!body[name].is_string()) return false;
  auto v = body[name].get<std::string>();
  for (const char* ok : values) {
    if (::strcasecmp(v.c_str(), ok) == 0) return true;
  }
  return false;
}

}  // namespace

void JobApi::add_job(Call& c) {
  nlohmann::json body;
  if (!c.body_object(body)) return;
  if (!body.contains("id") || !body["id"].is_string())
    return bad_property(c, errors::kMissingRequiredProperty, "id");
  if (!is_valid_batch_id(body["id"].get<std::string>()))
    return bad_property(c, errors::kInvalidPropertyValue, "id");
  if (!body.contains("poolInfo") || !body["poolInfo"].is_object()) {
    return bad_property(c, errors::kMissingRequiredProperty, "poolInfo");
  }
  if (!body["poolInfo"].contains("poolId") || !body["poolInfo"]["poolId"].is_string()) {
    return bad_property(c, errors::kInvalidPropertyValue, "poolInfo",
                        "the emulator runs jobs on an existing pool (poolInfo.poolId)");
  }
  if (!valid_enum(body, "onAllTasksComplete", {"noaction", "terminatejob"})) {
    return bad_property(c, errors::kInvalidPropertyValue, "onAllTasksComplete");
  }
  if (!valid_enum(body, "onTaskFailure", {"noaction", "performexitoptionsjobaction"})) {
    return bad_property(c, errors::kInvalidPropertyValue, "onTaskFailure");
  }
  if (body.contains("priority") &&
      (!body["priority"].is_number_integer() || body["priority"].get<int64_t>() < -1000 ||
       body["priority"].get<int64_t>() > 1000)) {
    return bad_property(c, errors::kInvalidPropertyValue, "priority");
  }
  JobEntity j;
  j.id = body["id"].get<std::string>();
  for (auto& [k, v] : body.items()) {
    for (const char* p : kJobSpecProperties) {
      if (k == p) j.spec[k] = v;
    }
  }
  j.pool_id = body["poolInfo"]["poolId"].get<std::string>();
  std::unique_lock lock(account_.mu_);
  if (account_.jobs_.count(j.id)) return c.error(errors::kJobExists);
  touch(j, c.now);
  j.state_time = j.start = c.now;
  const std::string url = account_.base_url_ + "/jobs/" + j.id;
  c.version_headers(j);
  account_.jobs_.emplace(j.id, std::move(j));
  ++account_.changes_;
  c.empty(201, url);
}

std::string JobApi::render_job(const JobEntity& j, const Select& s) const {
  std::string out;
  JsonOut w(out, &s);
  w.begin_object();
  w.str("id", j.id);
  if (j.spec.contains("displayName")) w.json("displayName", j.spec["displayName"]);
  w.flag("usesTaskDependencies", j.spec.value("usesTaskDependencies", false));
  w.str("url", account_.base_url_ + "/jobs/" + j.id);
  w.str("eTag", j.etag);
  w.when("lastModified", j.last_modified);
  w.when("creationTime", j.creation);
  w.str("state", wire(j.state));
  w.when("stateTransitionTime", j.state_time);
  if (j.prev_state_time) {
    w.str("previousState", wire(j.prev_state));
    w.when("previousStateTransitionTime", j.prev_state_time);
  }
  w.num("priority", j.spec.value("priority", 0));
  w.flag("allowTaskPreemption", j.spec.value("allowTaskPreemption", false));
  w.num("maxParallelTasks", j.spec.value("maxParallelTasks", -1));
  nlohmann::json constraints = j.spec.value("constraints", nlohmann::json::object());
  if (!constraints.contains("maxWallClockTime"))
    constraints["maxWallClockTime"] = "P10675199DT2H48M5.4775807S";
  if (!constraints.contains("maxTaskRetryCount")) constraints["maxTaskRetryCount"] = 0;
  w.json("constraints", constraints);
  for (const char* k :
       {"jobManagerTask", "jobPreparationTask", "jobReleaseTask", "commonEnvironmentSettings",
        "poolInfo", "networkConfiguration", "metadata"}) {
    if (j.spec.contains(k)) w.json(k, j.spec[k]);
  }
  w.str("onAllTasksComplete", j.spec.value("onAllTasksComplete", "noaction"));
  w.str("onTaskFailure", j.spec.value("onTaskFailure", "noaction"));
  if (w.key("executionInfo")) {
    w.begin_object();
    w.when("startTime", j.start);
    w.when("endTime", j.end);
    w.str("poolId", j.pool_id);
    if (!j.terminate_reason.empty()) w.str("terminateReason", j.terminate_reason);
    w.end_object();
  }
  w.end_object();
  return out;
}

void JobApi::list_jobs(Call& c) {
  ListQuery q;
  if (!read_list_query(c, ListKind::Jobs, q)) return;
  std::shared_lock lock(account_.mu_);
  std::string body = page_start(account_.base_url_, "jobs");
  auto keep = [&](const auto& entry) {
    const JobEntity& j = entry.second;
    auto get = [&](std::string_view prop) -> FilterValue {
      if (prop == "id") return j.id;
      if (prop == "state") return std::string(wire(j.state));
      if (prop == "creationTime") return from_micros(j.creation);
      if (prop == "lastModified") return from_micros(j.last_modified);
      if (prop == "stateTransitionTime") return from_micros(j.state_time);
      if (prop == "previousState")
        return j.prev_state_time ? std::string(wire(j.prev_state)) : FilterValue{};
      if (prop == "priority") return static_cast<int64_t>(j.spec.value("priority", 0));
      if (prop == "executionInfo/startTime") return from_micros(j.start);
      if (prop == "executionInfo/endTime")
        return j.end ? FilterValue(from_micros(j.end)) : FilterValue{};
      if (prop == "executionInfo/poolId") return j.pool_id;
      if (prop == "displayName") return j.spec.value("displayName", "");
      return {};
    };
    return q.filter.matches(get);
  };
  auto write = [&](const auto& entry, std::string& out) {
    out += render_job(entry.second, q.select);
  };
  send_page(c, body, fill_map_page(body, q, account_.jobs_, keep, write));
}

void JobApi::list_job_schedules(Call& c) {
  ListQuery q;
  if (!read_list_query(c, ListKind::JobSchedules, q)) return;
  // Job schedules cannot be created here, so the list is always empty.
  std::string body = page_start(account_.base_url_, "jobschedules");
  send_page(c, body, PageEnd{});
}

void JobApi::get_job(Call& c, const std::string& id) {
  std::shared_lock lock(account_.mu_);
  auto* j = account_.find_job(c, id);
  if (!j || !c.conditions_pass(*j, false)) return;
  c.version_headers(*j);
  c.json(200, render_job(*j, Select::parse(c.param("$select"))));
}

void JobApi::patch_job(Call& c, const std::string& id, bool replace) {
  nlohmann::json body;
  if (!c.body_object(body)) return;
  if (replace && !body.contains("poolInfo"))
    return bad_property(c, errors::kMissingRequiredProperty, "poolInfo");
  if (!valid_enum(body, "onAllTasksComplete", {"noaction", "terminatejob"})) {
    return bad_property(c, errors::kInvalidPropertyValue, "onAllTasksComplete");
  }
  std::unique_lock lock(account_.mu_);
  auto* j = account_.find_job(c, id);
  if (!j || !c.conditions_pass(*j, true)) return;
  if (j->state == JobState::Deleting) return c.error(errors::kJobBeingDeleted);
  if (j->state == JobState::Completed) return c.error(errors::kJobCompleted);
  for (const char* k : {"priority", "maxParallelTasks", "allowTaskPreemption", "constraints",
                        "poolInfo", "onAllTasksComplete", "metadata"}) {
    if (body.contains(k))
      j->spec[k] = body[k];
    else if (replace && std::string(k) != "poolInfo")
      j->spec.erase(k);
  }
  if (body.contains("poolInfo") && body["poolInfo"].contains("poolId"))
    j->pool_id = body["poolInfo"].value("poolId", j->pool_id);
  touch(*j, c.now);
  ++account_.changes_;
  c.version_headers(*j);
  c.empty(200, account_.base_url_ + "/jobs/" + id);
}

void JobApi::delete_job(Call& c, const std::string& id) {
  std::unique_lock lock(account_.mu_);
  auto* j = account_.find_job(c, id);
  if (!j || !c.conditions_pass(*j, true)) return;
  if (j->state != JobState::Deleting) {
    for (const auto& tid : j->running)
      account_.stop_run(*j, j->tasks.at(tid), std::chrono::seconds(2));
    account_.set_job_state(*j, JobState::Deleting);
  }
  c.empty(202);
}

void JobApi::job_action(Call& c, const std::string& id, const std::string& action) {
  nlohmann::json body = nlohmann::json::object();
  if (!c.req.body.empty() && !c.body_object(body)) return;
  std::unique_lock lock(account_.mu_);
  auto* j = account_.find_job(c, id);
  if (!j || !c.conditions_pass(*j, true)) return;
  if (j->state == JobState::Deleting) return c.error(errors::kJobBeingDeleted);
  if (j->state == JobState::Completed || j->state == JobState::Terminating) {
    return c.error(errors::kJobCompleted);
  }
  if (action == "disable") {
    if (!valid_enum(body, "disableTasks", {"requeue", "terminate", "wait"}) ||
        !body.contains("disableTasks")) {
      return bad_property(c,
                          body.contains("disableTasks") ? errors::kInvalidPropertyValue
                                                        : errors::kMissingRequiredProperty,
                          "disableTasks");
    }
    if (j->state != JobState::Active && j->state != JobState::Disabling &&
        j->state != JobState::Disabled) {
      return c.error(errors::kJobNotActive);
    }
    const std::string how = body["disableTasks"];
    for (auto it = j->running.begin(); it != j->running.end();) {
      auto& t = j->tasks.at(*it++);
      if (how == "requeue")
        account_.requeue_task(*j, t);
      else if (how == "terminate")
        account_.stop_run(*j, t, std::chrono::seconds(2));
    }
    account_.set_job_state(*j, JobState::Disabling);
  } else if (action == "enable") {
    if (j->state != JobState::Disabled && j->state != JobState::Disabling) {
      return c.error(errors::kJobNotDisabled);
    }
    account_.set_job_state(*j, JobState::Enabling);
  } else {
    j->terminate_reason = body.value("terminateReason", "UserTerminate");
    for (const auto& tid : j->running)
      account_.stop_run(*j, j->tasks.at(tid), std::chrono::seconds(2));
    account_.set_job_state(*j, JobState::Terminating);
  }
  c.empty(202, account_.base_url_ + "/jobs/" + id);
}

void JobApi::task_counts(Call& c, const std::string& id) {
  std::shared_lock lock(account_.mu_);
  auto* j = account_.find_job(c, id);
  if (!j) return;
  int64_t counts[5] = {0, 0, 0, 0, 0}, slots[5] = {0, 0, 0, 0, 0};
  for (const auto& [tid, t] : j->tasks) {
    int k = t.state == TaskState::Active ? 0 : t.state == TaskState::Completed ? 2 : 1;
    counts[k]++;
    slots[k] += t.required_slots;
    if (t.state == TaskState::Completed) {
      int r = t.exec.result == TaskResult::Failure ? 4 : 3;
      counts[r]++;
      slots[r] += t.required_slots;
    }
  }
  auto obj = [](const int64_t* v) {
    return nlohmann::json{{"active", v[0]},
                          {"running", v[1]},
                          {"completed", v[2]},
                          {"succeeded", v[3]},
                          {"failed", v[4]}};
  };
  c.json(200, nlohmann::json{{"odata.metadata",
                              account_.base_url_ + "/$metadata#taskcountsresult/@Element"},
                             {"taskCounts", obj(counts)},
                             {"taskSlotCounts", obj(slots)}}
                  .dump());
}

void JobApi::prep_release_status(Call& c, const std::string& id) {
  ListQuery q;
  if (!read_list_query(c, ListKind::JobPrepRelease, q)) return;
  std::shared_lock lock(account_.mu_);
  auto* j = account_.find_job(c, id);
  if (!j) return;
  if (!j->spec.contains("jobPreparationTask")) {
    return c.error(errors::kNoJobPreparationTask);
  }
  std::string body = page_start(account_.base_url_, "jobpreparationandreleasetaskstatuslist");
  auto exec_json = [](const Execution& e, bool running) {
    nlohmann::json x{{"state", running ? "running" : "completed"},
                     {"startTime", format_time(e.start)},
                     {"retryCount", e.retry_count}};
    if (!running) x["endTime"] = format_time(e.end);
    if (e.exit_code) x["exitCode"] = *e.exit_code;
    if (e.result != TaskResult::None) x["result"] = wire(e.result);
    if (!e.failure_code.empty())
      x["failureInfo"] = {
          {"category", "usererror"}, {"code", e.failure_code}, {"message", e.failure_message}};
    return x;
  };
  auto keep = [&](const auto& entry) {
    const std::string& node_id = entry.first;
    const PrepRelease& pr = entry.second;
    auto get = [&](std::string_view prop) -> FilterValue {
      if (prop == "nodeId") return node_id;
      if (prop == "poolId") return j->pool_id;
      if (prop == "jobPreparationTaskExecutionInfo/state")
        return std::string(pr.prep_running ? "running" : "completed");
      if (prop == "jobReleaseTaskExecutionInfo/state") {
        return pr.release_started
                   ? FilterValue(std::string(pr.release_running ? "running" : "completed"))
                   : FilterValue{};
      }
      return {};
    };
    return q.filter.matches(get);
  };
  auto write = [&](const auto& entry, std::string& out) {
    const std::string& node_id = entry.first;
    const PrepRelease& pr = entry.second;
    nlohmann::json e{
        {"poolId", j->pool_id},
        {"nodeId", node_id},
        {"nodeUrl", fmt::format("{}/pools/{}/nodes/{}", account_.base_url_, j->pool_id, node_id)},
        {"jobPreparationTaskExecutionInfo", exec_json(pr.prep, pr.prep_running)}};
    if (account_.nodes_.count(node_id))
      e["jobPreparationTaskExecutionInfo"]["taskRootDirectory"] =
          "workitems/" + j->id + "/job-1/jobpreparation";
    if (pr.release_started)
      e["jobReleaseTaskExecutionInfo"] = exec_json(pr.release, pr.release_running);
    out += e.dump();
  };
  send_page(c, body, fill_map_page(body, q, j->nodes, keep, write));
}

}  // namespace trainyard::emu
