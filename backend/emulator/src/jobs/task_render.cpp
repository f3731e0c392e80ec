// A task in the service's JSON shape, written directly (no DOM) so large pages are cheap.
#include <fmt/format.h>

#include "task_api.hpp"
#include "wire_time.hpp"

namespace trainyard::emu {

namespace {

constexpr const char* kUnlimited = "P10675199DT2H48M5.4775807S";
constexpr int64_t kDefaultRetentionUs = 7LL * 24 * 3600 * 1000000;

void extra(JsonOut& w, const TaskEntity& t, const char* name) {
  if (!t.extra) return;
  auto it = t.extra->find(name);
  if (it != t.extra->end()) w.json(name, *it);
}

std::string duration_text(int64_t us) {
  return us < 0 ? std::string(kUnlimited) : write_wire_duration(us);
}

void write_details(JsonOut& w, const std::vector<std::pair<std::string, std::string>>& details) {
  if (details.empty() || !w.key("details")) return;
  w.begin_array();
  for (const auto& [name, value] : details) {
    w.begin_object();
    w.str("name", name);
    w.str("value", value);
    w.end_object();
  }
  w.end_array();
}

void write_execution(JsonOut& w, const TaskEntity& t) {
  const auto& e = t.exec;
  w.begin_object();
  w.when("startTime", e.start);
  w.when("endTime", e.end);
  if (e.exit_code) w.num("exitCode", *e.exit_code);
  if (!e.failure_code.empty() && w.key("failureInfo")) {
    w.begin_object();
    w.str("category", "usererror");
    w.str("code", e.failure_code);
    w.str("message", e.failure_message);
    write_details(w, e.failure_details);
    w.end_object();
  }
  w.num("retryCount", e.retry_count);
  w.when("lastRetryTime", e.last_retry);
  w.num("requeueCount", e.requeue_count);
  w.when("lastRequeueTime", e.last_requeue);
  if (e.result != TaskResult::None) w.str("result", wire(e.result));
  w.end_object();
}

}  // namespace

std::string TaskApi::render_task(const JobEntity& j, const TaskEntity& t, const Select& s) const {
  std::string out;
  out.reserve(s.all() ? 900 : 160);
  JsonOut w(out, &s);
  w.begin_object();
  w.str("id", t.id);
  extra(w, t, "displayName");
  if (w.key("url")) {
    std::string url = account_.base_url_;
    url += "/jobs/";
    url += j.id;
    url += "/tasks/";
    url += t.id;
    w.string(url);
  }
  w.str("eTag", t.etag);
  w.when("creationTime", t.creation);
  w.when("lastModified", t.last_modified);
  extra(w, t, "exitConditions");
  w.str("state", wire(t.state));
  w.when("stateTransitionTime", t.state_time);
  if (t.prev_state_time) {
    w.str("previousState", wire(t.prev_state));
    w.when("previousStateTransitionTime", t.prev_state_time);
  }
  w.str("commandLine", t.command_line);
  for (const char* k : {"containerSettings", "resourceFiles", "outputFiles", "environmentSettings",
                        "affinityInfo"}) {
    extra(w, t, k);
  }
  if (w.key("constraints")) {
    w.begin_object();
    w.str("maxWallClockTime", duration_text(t.max_wall_us));
    w.str("retentionTime",
          duration_text(t.retention_us < 0 ? kDefaultRetentionUs : t.retention_us));
    w.num("maxTaskRetryCount", t.max_retries);
    w.end_object();
  }
  w.num("requiredSlots", t.required_slots);
  if (t.extra && t.extra->contains("userIdentity")) {
    extra(w, t, "userIdentity");
  } else if (w.key("userIdentity")) {
    w.raw(R"({"autoUser":{"scope":"pool","elevationLevel":"nonadmin"}})");
  }
  if (w.key("executionInfo")) write_execution(w, t);
  if (!t.node_id.empty() && w.key("nodeInfo")) {
    w.begin_object();
    w.str("affinityId", "TVM:" + t.node_id);
    w.str("nodeUrl", fmt::format("{}/pools/{}/nodes/{}", account_.base_url_, t.pool_id, t.node_id));
    w.str("poolId", t.pool_id);
    w.str("nodeId", t.node_id);
    w.str("taskRootDirectory", fmt::format("workitems/{}/job-1/{}", j.id, t.id));
    w.str("taskRootDirectoryUrl",
          fmt::format("{}/pools/{}/nodes/{}/files/workitems/{}/job-1/{}", account_.base_url_,
                      t.pool_id, t.node_id, j.id, t.id));
    w.end_object();
  }
  for (const char* k : {"multiInstanceSettings", "dependsOn", "applicationPackageReferences",
                        "authenticationTokenSettings"}) {
    extra(w, t, k);
  }
  w.end_object();
  return out;
}

}  // namespace trainyard::emu
