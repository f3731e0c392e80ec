// Tasks: add, addtaskcollection, list, get, update, delete, terminate, reactivate, subtasks.
#include <strings.h>

#include <fmt/format.h>

#include "local/engine.hpp"
#include "runner.hpp"
#include "task_api.hpp"
#include "wire_time.hpp"

namespace trainyard::emu {

namespace {

// Properties kept as given in TaskEntity::extra.
const char* const kTaskExtraProperties[] = {
    "displayName",
    "exitConditions",
    "resourceFiles",
    "outputFiles",
    "environmentSettings",
    "affinityInfo",
    "userIdentity",
    "multiInstanceSettings",
    "dependsOn",
    "applicationPackageReferences",
    "authenticationTokenSettings",
    "containerSettings",
};

int64_t duration_us(const nlohmann::json& v, bool& bad) {
  if (!v.is_string()) {
    bad = true;
    return -1;
  }
  auto d = read_wire_duration(v.get<std::string>());
  if (!d) {
    bad = true;
    return -1;
  }
  return *d;
}

BodyError read_constraints(const nlohmann::json& c, TaskEntity& t) {
  if (!c.is_object()) return {&errors::kInvalidPropertyValue, "constraints"};
  bool bad = false;
  if (c.contains("maxWallClockTime")) t.max_wall_us = duration_us(c["maxWallClockTime"], bad);
  if (bad) return {&errors::kInvalidPropertyValue, "maxWallClockTime"};
  if (c.contains("retentionTime")) t.retention_us = duration_us(c["retentionTime"], bad);
  if (bad) return {&errors::kInvalidPropertyValue, "retentionTime"};
  if (c.contains("maxTaskRetryCount")) {
    if (!c["maxTaskRetryCount"].is_number_integer() || c["maxTaskRetryCount"].get<int64_t>() < -1) {
      return {&errors::kInvalidPropertyValue, "maxTaskRetryCount"};
    }
    t.max_retries = c["maxTaskRetryCount"].get<int>();
  }
  return {};
}

BodyError check_multi_instance(const nlohmann::json& mi) {
  if (!mi.is_object()) return {&errors::kInvalidPropertyValue, "multiInstanceSettings"};
  auto n = mi.value("numberOfInstances", 1);
  if (n < 1 || n > 100) return {&errors::kInvalidPropertyValue, "numberOfInstances"};
  return {};
}

}  // namespace

BodyError TaskApi::build_task(const nlohmann::json& body, TaskEntity& t) {
  if (!body.is_object()) return {&errors::kInvalidRequestBody, ""};
  if (!body.contains("id") || !body["id"].is_string())
    return {&errors::kMissingRequiredProperty, "id"};
  if (!is_valid_batch_id(body["id"].get<std::string>()))
    return {&errors::kInvalidPropertyValue, "id"};
  if (!body.contains("commandLine") || !body["commandLine"].is_string()) {
    return {&errors::kMissingRequiredProperty, "commandLine"};
  }
  t.id = body["id"].get<std::string>();
  t.command_line = body["commandLine"].get<std::string>();
  if (body.contains("constraints")) {
    if (auto e = read_constraints(body["constraints"], t)) return e;
  }
  if (body.contains("requiredSlots")) {
    if (!body["requiredSlots"].is_number_integer() || body["requiredSlots"].get<int64_t>() < 1) {
      return {&errors::kInvalidPropertyValue, "requiredSlots"};
    }
    t.required_slots = body["requiredSlots"].get<int>();
  }
  if (body.contains("multiInstanceSettings")) {
    if (auto e = check_multi_instance(body["multiInstanceSettings"])) return e;
  }
  if (body.contains("environmentSettings") && !body["environmentSettings"].is_array()) {
    return {&errors::kInvalidPropertyValue, "environmentSettings"};
  }
  for (const char* k : kTaskExtraProperties) {
    if (!body.contains(k)) continue;
    if (!t.extra) t.extra = std::make_unique<nlohmann::json>(nlohmann::json::object());
    (*t.extra)[k] = body[k];
  }
  return {};
}

namespace {

// Why a job takes no new tasks, or nullptr.
const ErrorText* job_refuses_tasks(const JobEntity& j) {
  if (j.state == JobState::Completed || j.state == JobState::Terminating)
    return &errors::kJobCompleted;
  if (j.state == JobState::Deleting) return &errors::kJobBeingDeleted;
  return nullptr;
}

bool uses_dependencies(const JobEntity& j) {
  return j.spec.value("usesTaskDependencies", false);
}

}  // namespace

void TaskApi::add_task(Call& c, const std::string& job) {
  nlohmann::json body;
  if (!c.body_object(body)) return;
  TaskEntity t;
  if (auto e = build_task(body, t)) return bad_property(c, *e.error, e.property);
  std::unique_lock lock(account_.mu_);
  auto* j = account_.find_job(c, job);
  if (!j) return;
  if (auto* refused = job_refuses_tasks(*j)) return c.error(*refused);
  if (body.contains("dependsOn") && !uses_dependencies(*j)) {
    return c.error(errors::kTaskDependenciesOff);
  }
  if (j->tasks.count(t.id)) return c.error(errors::kTaskExists);
  touch(t, c.now);
  t.state_time = c.now;
  c.version_headers(t);
  const std::string url = fmt::format("{}/jobs/{}/tasks/{}", account_.base_url_, job, t.id);
  j->pending.insert(t.id);
  j->tasks.emplace(t.id, std::move(t));
  ++account_.changes_;
  c.empty(201, url);
}

void TaskApi::add_task_collection(Call& c, const std::string& job) {
  if (c.req.body.size() > 1024 * 1024) {
    return c.error(errors::kRequestBodyTooLarge, {{"MaxLimit", "1048576"}});
  }
  nlohmann::json body;
  if (!c.body_object(body)) return;
  if (!body.contains("value") || !body["value"].is_array())
    return bad_property(c, errors::kMissingRequiredProperty, "value");
  if (body["value"].size() > 100) {
    return c.error(errors::kTooManyTasksInCollection, {{"MaxLimit", "100"}});
  }
  std::unique_lock lock(account_.mu_);
  auto* j = account_.find_job(c, job);
  if (!j) return;
  if (auto* refused = job_refuses_tasks(*j)) return c.error(*refused);
  auto results = nlohmann::json::array();
  for (const auto& item : body["value"]) {
    TaskEntity t;
    const BodyError built = build_task(item, t);
    nlohmann::json r{{"taskId", item.is_object() ? item.value("id", "") : ""}};
    auto fail = [&](const ErrorText& e) {
      r["status"] = "clienterror";
      r["error"] = {{"code", e.code}, {"message", {{"lang", "en-US"}, {"value", e.message}}}};
      if (!built.property.empty())
        r["error"]["values"] = {{{"key", "PropertyName"}, {"value", built.property}}};
    };
    if (built) {
      fail(*built.error);
    } else if (item.contains("dependsOn") && !uses_dependencies(*j)) {
      fail(errors::kTaskDependenciesOff);
    } else if (j->tasks.count(t.id)) {
      fail(errors::kTaskExists);
    } else {
      touch(t, c.now);
      t.state_time = c.now;
      r["status"] = "success";
      r["eTag"] = t.etag;
      r["lastModified"] = format_time(c.now);
      r["location"] = fmt::format("{}/jobs/{}/tasks/{}", account_.base_url_, job, t.id);
      j->pending.insert(t.id);
      j->tasks.emplace(t.id, std::move(t));
      ++account_.changes_;
    }
    results.push_back(std::move(r));
  }
  c.json(200, nlohmann::json{{"odata.metadata", account_.base_url_ + "/$metadata#taskaddresult"},
                             {"value", results}}
                  .dump());
}

void TaskApi::list_tasks(Call& c, const std::string& job) {
  ListQuery q;
  if (!read_list_query(c, ListKind::Tasks, q)) return;
  std::shared_lock lock(account_.mu_);
  auto* j = account_.find_job(c, job);
  if (!j) return;
  std::string body;
  body.reserve(static_cast<size_t>(q.max_results) * (q.select.all() ? 900 : 200));
  body = page_start(account_.base_url_, "tasks");
  const bool filtered = !q.filter.empty();
  auto keep = [&](const auto& entry) {
    const TaskEntity& t = entry.second;
    if (filtered) {
      auto get = [&](std::string_view prop) -> FilterValue {
        if (prop == "id") return t.id;
        if (prop == "state") return std::string(wire(t.state));
        if (prop == "creationTime") return from_micros(t.creation);
        if (prop == "lastModifiedTime") return from_micros(t.last_modified);
        if (prop == "stateTransitionTime") return from_micros(t.state_time);
        if (prop == "previousState")
          return t.prev_state_time ? FilterValue(std::string(wire(t.prev_state))) : FilterValue{};
        if (prop == "previousStateTransitionTime")
          return t.prev_state_time ? FilterValue(from_micros(t.prev_state_time)) : FilterValue{};
        if (prop == "executionInfo/startTime")
          return t.exec.start ? FilterValue(from_micros(t.exec.start)) : FilterValue{};
        if (prop == "executionInfo/endTime")
          return t.exec.end ? FilterValue(from_micros(t.exec.end)) : FilterValue{};
        if (prop == "executionInfo/exitCode")
          return t.exec.exit_code ? FilterValue(int64_t{*t.exec.exit_code}) : FilterValue{};
        if (prop == "executionInfo/result")
          return t.exec.result == TaskResult::None ? FilterValue{}
                                                   : FilterValue(std::string(wire(t.exec.result)));
        if (prop == "executionInfo/retryCount") return int64_t{t.exec.retry_count};
        if (prop == "executionInfo/requeueCount") return int64_t{t.exec.requeue_count};
        if (prop == "nodeInfo/nodeId")
          return t.node_id.empty() ? FilterValue{} : FilterValue(t.node_id);
        if (prop == "nodeInfo/poolId")
          return t.pool_id.empty() ? FilterValue{} : FilterValue(t.pool_id);
        if (prop == "displayName" && t.extra) return t.extra->value("displayName", "");
        if (prop == "commandLine") return t.command_line;
        if (prop == "requiredSlots") return int64_t{t.required_slots};
        return {};
      };
      return q.filter.matches(get);
    }
    return true;
  };
  auto write = [&](const auto& entry, std::string& out) {
    out += render_task(*j, entry.second, q.select);
  };
  send_page(c, body, fill_map_page(body, q, j->tasks, keep, write));
}

void TaskApi::get_task(Call& c, const std::string& job, const std::string& task) {
  std::shared_lock lock(account_.mu_);
  auto* j = account_.find_job(c, job);
  if (!j) return;
  auto* t = account_.find_task(c, *j, task);
  if (!t || !c.conditions_pass(*t, false)) return;
  c.version_headers(*t);
  c.json(200, render_task(*j, *t, Select::parse(c.param("$select"))));
}

void TaskApi::put_task(Call& c, const std::string& job, const std::string& task) {
  nlohmann::json body;
  if (!c.body_object(body)) return;
  std::unique_lock lock(account_.mu_);
  auto* j = account_.find_job(c, job);
  if (!j) return;
  auto* t = account_.find_task(c, *j, task);
  if (!t || !c.conditions_pass(*t, true)) return;
  if (body.contains("constraints")) {
    TaskEntity copy;
    copy.max_wall_us = t->max_wall_us;
    copy.retention_us = t->retention_us;
    copy.max_retries = t->max_retries;
    if (auto e = read_constraints(body["constraints"], copy)) {
      return bad_property(c, *e.error, e.property);
    }
    t->max_wall_us = copy.max_wall_us;
    t->retention_us = copy.retention_us;
    t->max_retries = copy.max_retries;
  }
  touch(*t, c.now);
  ++account_.changes_;
  c.version_headers(*t);
  c.empty(200, fmt::format("{}/jobs/{}/tasks/{}", account_.base_url_, job, task));
}

void TaskApi::delete_task(Call& c, const std::string& job, const std::string& task) {
  std::unique_lock lock(account_.mu_);
  auto* j = account_.find_job(c, job);
  if (!j) return;
  auto* t = account_.find_task(c, *j, task);
  if (!t || !c.conditions_pass(*t, true)) return;
  if (t->state != TaskState::Completed) account_.stop_run(*j, *t, std::chrono::seconds(1));
  if (t->state == TaskState::Running || t->state == TaskState::Preparing)
    account_.release_slots(*t);
  j->pending.erase(task);
  j->running.erase(task);
  j->tasks.erase(task);
  ++account_.changes_;
  c.empty(200);
}

void TaskApi::task_action(Call& c, const std::string& job, const std::string& task,
                          const std::string& action) {
  std::unique_lock lock(account_.mu_);
  auto* j = account_.find_job(c, job);
  if (!j) return;
  auto* t = account_.find_task(c, *j, task);
  if (!t || !c.conditions_pass(*t, true)) return;
  if (action == "terminate") {
    if (t->state == TaskState::Active) {
      j->pending.erase(t->id);
      t->exec.result = TaskResult::Failure;
      t->exec.failure_code = "TaskEnded";
      t->exec.failure_message = "Task Was Ended by User Request";
      t->exec.end = c.now;
      account_.set_task_state(*t, TaskState::Completed);
      account_.after_task_completed(*j, *t);
    } else if (t->state != TaskState::Completed) {
      account_.stop_run(*j, *t, std::chrono::seconds(3));
    }
    return c.empty(204);
  }
  // reactivate: only a task that completed with a failure, in a job that still runs.
  if (t->state != TaskState::Completed || t->exec.result != TaskResult::Failure) {
    return c.error(errors::kTaskNotFailed);
  }
  if (j->state == JobState::Completed || j->state == JobState::Terminating ||
      j->state == JobState::Deleting) {
    return c.error(errors::kJobCompleted);
  }
  if (account_.runner_ && t->engine_started)
    account_.runner_->remove(job, engine_id(t->id, t->engine_generation));
  t->engine_started = false;
  t->engine_generation++;
  t->exec = Execution{};
  t->node_id.clear();
  account_.set_task_state(*t, TaskState::Active);
  j->pending.insert(t->id);
  c.empty(204);
}

void TaskApi::subtasks_info(Call& c, const std::string& job, const std::string& task) {
  std::shared_lock lock(account_.mu_);
  auto* j = account_.find_job(c, job);
  if (!j) return;
  auto* t = account_.find_task(c, *j, task);
  if (!t) return;
  auto arr = nlohmann::json::array();
  for (const auto& s : t->subtasks) {
    if (s.id == 0) continue;  // the primary is the task itself
    nlohmann::json x{{"id", s.id},
                     {"state", wire(s.state)},
                     {"stateTransitionTime", format_time(s.state_time)},
                     {"nodeInfo",
                      {{"affinityId", "TVM:" + s.node_id},
                       {"nodeUrl", fmt::format("{}/pools/{}/nodes/{}", account_.base_url_,
                                               t->pool_id, s.node_id)},
                       {"poolId", t->pool_id},
                       {"nodeId", s.node_id}}}};
    if (s.exec.start) x["startTime"] = format_time(s.exec.start);
    if (s.exec.end) x["endTime"] = format_time(s.exec.end);
    if (s.exec.exit_code) x["exitCode"] = *s.exec.exit_code;
    if (s.exec.result != TaskResult::None) x["result"] = wire(s.exec.result);
    if (!s.exec.failure_code.empty()) {
      x["failureInfo"] = {{"category", "usererror"},
                          {"code", s.exec.failure_code},
                          {"message", s.exec.failure_message}};
    }
    arr.push_back(std::move(x));
  }
  c.json(200,
         nlohmann::json{{"odata.metadata", account_.base_url_ + "/$metadata#subtaskinformations"},
                        {"value", arr}}
             .dump());
}

}  // namespace trainyard::emu
