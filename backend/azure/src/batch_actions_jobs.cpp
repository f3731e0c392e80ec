// Batch actions on jobs and tasks: create (with submittedBy), disable, enable, terminate, delete,
// and adding tasks in collections of 100.
#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <random>
#include <set>
#include <thread>

#include <fmt/format.h>

#include "azure/batch_actions.hpp"
#include "batch_actions_internal.hpp"

namespace trainyard::azure {

using detail::Action;
using detail::done;
using detail::path;
using detail::send_action;
using nlohmann::json;

namespace {

Result<void> check_id(const json& body, const char* what) {
  if (body.is_object() && body.contains("id") && body["id"].is_string()) return {};
  return make_error(ErrorKind::Usage, fmt::format("a {} needs a string \"id\"", what));
}

std::string user_name() {
  std::vector<char> buf(16384);
  passwd pw{};
  passwd* found = nullptr;
  if (::getpwuid_r(::geteuid(), &pw, buf.data(), buf.size(), &found) == 0 && found)
    return found->pw_name;
  return "unknown";
}

std::string host_name() {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0 || !host[0]) return "unknown";
  return host;
}

}  // namespace

std::string submitter_identity() {
  return user_name() + "@" + host_name();
}

Result<json> with_submitted_by(json body, const std::string& who) {
  if (!body.is_object()) return make_error(ErrorKind::Usage, "a job must be a JSON object");
  json& metadata = body["metadata"];
  if (metadata.is_null()) metadata = json::array();
  if (!metadata.is_array())
    return make_error(ErrorKind::Usage, "a job's \"metadata\" must be an array of {name, value}");
  for (const auto& m : metadata) {
    if (m.is_object() && m.value("name", json()) == "submittedBy") return body;
  }
  metadata.push_back({{"name", "submittedBy"}, {"value", who}});
  return body;
}

Result<void> create_job(BatchClient& client, json body) {
  TY_TRY(check_id(body, "job"));
  auto stamped = with_submitted_by(std::move(body), submitter_identity());
  if (!stamped) return stamped.error();
  // A create is not retried where the service may have applied it (BatchClient's rule for
  // non-idempotent POSTs): a lost answer is reported, and a second try says JobExists.
  return done(send_action(client, Action{"POST", "/jobs", std::move(*stamped), {}, false}));
}

Result<void> disable_job(BatchClient& client, const std::string& job, DisableJobOption option) {
  // Safe to retry: the service accepts disable on a disabling or disabled job (a state
  // transition to the same place).
  return done(send_action(client, Action{"POST", path({"jobs", job}) + "/disable",
                                         json{{"disableTasks", wire_name(option)}}}));
}

Result<void> enable_job(BatchClient& client, const std::string& job) {
  // Safe to retry: after a retry, JobNotDisabled means the first attempt already enabled it.
  return done(send_action(
      client,
      Action{"POST", path({"jobs", job}) + "/enable", nullptr, {}, true, {"JobNotDisabled"}}));
}

Result<void> terminate_job(BatchClient& client, const std::string& job, const std::string& reason) {
  json body = reason.empty() ? json(nullptr) : json{{"terminateReason", reason}};
  // Safe to retry: after a retry, JobCompleted means the first attempt is terminating it.
  return done(send_action(
      client,
      Action{"POST", path({"jobs", job}) + "/terminate", body, {}, true, {"JobCompleted"}}));
}

Result<void> delete_job(BatchClient& client, const std::string& job) {
  // DELETE is idempotent; after a retry, a job already deleting or gone is this delete's.
  return done(send_action(
      client,
      Action{
          "DELETE", path({"jobs", job}), nullptr, {}, true, {"JobBeingDeleted", "JobNotFound"}}));
}

Result<void> terminate_task(BatchClient& client, const std::string& job, const std::string& task) {
  // Safe to retry: terminating a completed task changes nothing.
  return done(send_action(client, Action{"POST", path({"jobs", job, "tasks", task, "terminate"})}));
}

Result<void> reactivate_task(BatchClient& client, const std::string& job, const std::string& task) {
  // Safe to retry: after a retry, TaskNotFailed means the first attempt reactivated it.
  return done(send_action(client, Action{"POST",
                                         path({"jobs", job, "tasks", task, "reactivate"}),
                                         nullptr,
                                         {},
                                         true,
                                         {"TaskNotFailed"}}));
}

Result<void> delete_task(BatchClient& client, const std::string& job, const std::string& task) {
  // DELETE is idempotent; after a retry, a task already gone is this delete's.
  return done(send_action(
      client,
      Action{"DELETE", path({"jobs", job, "tasks", task}), nullptr, {}, true, {"TaskNotFound"}}));
}

// ---- addtaskcollection ----

namespace {

std::string describe(const TaskAddResult& r) {
  if (!r.error) return fmt::format("task {}: {}", r.task_id, "the service gave no reason");
  return fmt::format("task {}: {}: {}", r.task_id, r.error->code, r.error->message);
}

bool server_side(const TaskAddResult& r) {
  if (r.status == TaskAddStatus::ServerError) return true;
  const std::string code = r.error ? r.error->code : "";
  return code == "ServerBusy" || code == "InternalError" || code == "OperationTimedOut";
}

}  // namespace

TaskAddOutcome classify_task_adds(const std::vector<TaskAddResult>& results, bool retried) {
  TaskAddOutcome out;
  for (const auto& r : results) {
    const bool exists = r.error && r.error->code == "TaskExists";
    if (r.status == TaskAddStatus::Success || (retried && exists)) {
      ++out.added;
    } else if (server_side(r)) {
      out.retry.push_back(r.task_id);
      if (out.retry_reason.empty()) out.retry_reason = describe(r);
    } else if (!out.error) {
      out.error = make_error(exists ? ErrorKind::Conflict : ErrorKind::Http, describe(r));
    }
  }
  return out;
}

namespace {

// The tasks of `pending` to send again: those the answer asked to retry or did not mention.
std::vector<json> still_pending(const std::vector<json>& pending,
                                const std::vector<TaskAddResult>& results,
                                const std::vector<std::string>& retry) {
  std::set<std::string> answered, again(retry.begin(), retry.end());
  for (const auto& r : results) answered.insert(r.task_id);
  std::vector<json> out;
  for (const auto& t : pending) {
    const auto id = t["id"].get<std::string>();
    if (again.count(id) || !answered.count(id)) out.push_back(t);
  }
  return out;
}

// Where the collection starting at `begin` ends: at most kTaskCollectionLimit tasks and
// kTaskCollectionBytes of them, and always at least one task.
std::size_t collection_end(const std::vector<json>& tasks, std::size_t begin) {
  std::size_t end = begin, bytes = 0;
  while (end < tasks.size() && end - begin < kTaskCollectionLimit) {
    bytes += tasks[end].dump().size() + 1;  // and its comma
    if (end > begin && bytes > kTaskCollectionBytes) break;
    ++end;
  }
  return end;
}

// One collection, re-sent (only its unfinished tasks) while the service reports server-side
// errors for some, up to the client's retry count.
Result<int> add_collection(BatchClient& client, const std::string& job, std::vector<json> pending) {
  const auto& policy = client.options().retry;
  std::mt19937_64 rng(std::random_device{}());
  int added = 0;
  bool retried = false;
  for (int round = 1;; ++round) {
    const auto before = client.stats().retries;
    // Idempotent: the caller fixed every task id, so a re-sent collection cannot add a task
    // twice; what the lost attempt added comes back as TaskExists.
    auto r = client.call("POST", path({"jobs", job}) + "/addtaskcollection", {},
                         json{{"value", pending}}.dump(), {}, true);
    retried = retried || client.stats().retries > before;
    if (!r) return r.error();
    auto results = parse_task_add_results(r->body);
    if (!results) return results.error();
    auto outcome = classify_task_adds(*results, retried);
    added += outcome.added;
    if (outcome.error) return *outcome.error;
    pending = still_pending(pending, *results, outcome.retry);
    if (pending.empty()) return added;
    if (round > policy.max_retries)
      return make_error(
          ErrorKind::Http,
          fmt::format("{} (still after {} attempts)",
                      outcome.retry_reason.empty() ? "tasks left unanswered" : outcome.retry_reason,
                      round));
    std::this_thread::sleep_for(retry_delay(policy, round, nullptr, rng));
    retried = true;
  }
}

Result<void> check_task_ids(const std::vector<json>& tasks) {
  std::set<std::string> seen;
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    if (!tasks[i].is_object() || !tasks[i].contains("id") || !tasks[i]["id"].is_string())
      return make_error(ErrorKind::Usage, fmt::format("task {} has no string \"id\"", i + 1));
    if (!seen.insert(tasks[i]["id"].get<std::string>()).second)
      return make_error(ErrorKind::Usage, fmt::format("task id '{}' appears twice",
                                                      tasks[i]["id"].get<std::string>()));
  }
  return {};
}

}  // namespace

Result<AddTasksResult> add_tasks(BatchClient& client, const std::string& job,
                                 const std::vector<json>& tasks) {
  TY_TRY(check_task_ids(tasks));
  AddTasksResult out;
  for (std::size_t i = 0; i < tasks.size();) {
    const auto end = collection_end(tasks, i);
    auto added = add_collection(client, job, {tasks.begin() + i, tasks.begin() + end});
    if (!added) return added.error();
    out.added += *added;
    ++out.collections;
    i = end;
  }
  return out;
}

}  // namespace trainyard::azure
