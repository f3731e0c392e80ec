// Task counts of a job and node counts of pools: cheap change detectors for the poller.
#include <cctype>

#include <fmt/format.h>

#include "azure/parse.hpp"
#include "core/text.hpp"

namespace trainyard::azure {
namespace {

// Adds one `dedicated`/`lowPriority` object's per-state counts into `out`.
void add_node_counts(const JsonFields& f, const nlohmann::json* counts,
                     std::map<std::string, int>& out) {
  if (!counts) return;
  if (!counts->is_object()) return f.fail("", "expected an object of node counts");
  for (const auto& [state, n] : counts->items()) {
    if (state == "total") continue;
    if (!n.is_number_integer()) return f.fail(state, "expected an integer");
    out[ascii_lowercase(state)] += n.get<int>();
  }
}

}  // namespace

Result<JobTaskCounts> parse_task_counts(std::string_view body) {
  auto j = parse_json_body(body);
  if (!j) return j.error();
  std::optional<Error> err;
  JsonFields doc(*j, "", err);
  JsonFields f = doc.child("taskCounts");
  if (!doc.has("taskCounts")) doc.fail("taskCounts", "missing");
  JobTaskCounts c;
  f.get("active", c.active);
  f.get("running", c.running);
  f.get("completed", c.completed);
  f.get("succeeded", c.succeeded);
  f.get("failed", c.failed);
  if (err) return *err;
  return c;
}

Result<PoolNodeCounts> parse_pool_node_counts(const nlohmann::json& j) {
  std::optional<Error> err;
  JsonFields f(j, "", err);
  PoolNodeCounts c;
  f.require("poolId", c.pool);
  if (f.ok()) {
    add_node_counts(f, f.member("dedicated"), c.by_state);
    add_node_counts(f, f.member("lowPriority"), c.by_state);
  }
  std::erase_if(c.by_state, [](const auto& kv) { return kv.second == 0; });
  if (err) return *err;
  return c;
}

}  // namespace trainyard::azure
