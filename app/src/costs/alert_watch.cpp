#include "alert_watch.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace trainyard {
namespace {

bool wanted(const AlertSettings& s, AlertKind k) {
  return std::find(s.on.begin(), s.on.end(), k) != s.on.end();
}

std::string finished_key(const Task& t) {
  auto end = t.execution_info.end_time ? t.execution_info.end_time->time_since_epoch().count() : 0;
  return fmt::format("{}/{}@{}", t.job_id, t.id, end);
}

Alert task_alert(const std::string& account, const Task& t) {
  const bool failed = t.execution_info.result == TaskResult::Failure;
  Alert a{
      failed ? AlertKind::TaskFailed : AlertKind::TaskSucceeded, account, t.job_id, t.id, "", ""};
  a.pool = t.node_info ? t.node_info->pool_id : "";
  std::string exit = t.execution_info.exit_code
                         ? fmt::format(" (exit {})", *t.execution_info.exit_code)
                         : std::string();
  a.text = fmt::format("task {}/{} {}{}", t.job_id, t.id, failed ? "failed" : "succeeded", exit);
  return a;
}

// Finished tasks of the jobs whose count of finished tasks moved (a grouped count first, so a
// quiet account costs one query); on the first look they are only recorded.
void task_alerts(Store& store, const std::string& account, bool first, AlertsSeen& seen,
                 std::vector<Alert>& out) {
  auto counts = store.job_task_counts(account);
  if (!counts) return;
  for (const auto& [job, c] : *counts) {
    auto it = c.by_state.find(TaskState::Completed);
    int64_t done = it == c.by_state.end() ? 0 : it->second;
    if (seen.completed.count(job) && seen.completed[job] == done) continue;
    seen.completed[job] = done;
    auto tasks = store.tasks(TaskQuery{account, job, TaskState::Completed});
    if (!tasks) continue;
    for (const auto& t : *tasks)
      if (seen.finished.insert(finished_key(t)).second && !first)
        out.push_back(task_alert(account, t));
  }
}

void job_alerts(Store& store, const std::string& account, bool first, AlertsSeen& seen,
                std::vector<Alert>& out) {
  auto jobs = store.jobs(account);
  if (!jobs) return;
  std::map<std::string, JobState> now;
  for (const auto& j : *jobs) {
    now[j.id] = j.state;
    auto before = seen.jobs.find(j.id);
    bool was_done = before != seen.jobs.end() && before->second == JobState::Completed;
    if (!first && j.state == JobState::Completed && !was_done)
      out.push_back({AlertKind::JobCompleted, account, j.id, "", j.pool_id,
                     fmt::format("job {} completed", j.id)});
  }
  seen.jobs = std::move(now);
}

std::string resized_alert_text(const Pool& p) {
  auto text = fmt::format("pool {} resized: {} dedicated, {} Spot", p.id, p.current_dedicated_nodes,
                          p.current_low_priority_nodes);
  return p.resize_error.empty() ? text : text + " (" + p.resize_error + ")";
}

void pool_alerts(Store& store, const std::string& account, bool first, AlertsSeen& seen,
                 std::vector<Alert>& out) {
  auto pools = store.pools(account);
  if (!pools) return;
  std::map<std::string, AllocationState> now;
  for (const auto& p : *pools) {
    now[p.id] = p.allocation_state;
    auto before = seen.pools.find(p.id);
    bool was_resizing = before != seen.pools.end() && before->second != AllocationState::Steady;
    if (!first && was_resizing && p.allocation_state == AllocationState::Steady)
      out.push_back({AlertKind::ResizeDone, account, "", "", p.id, resized_alert_text(p)});
  }
  seen.pools = std::move(now);
}

}  // namespace

std::vector<Alert> account_alerts(Store& store, const std::string& account,
                                  const AlertSettings& settings, const std::string& preemption_news,
                                  AlertWatch& watch) {
  std::vector<Alert> out;
  const bool first = !watch.count(account);
  auto& seen = watch[account];
  if (wanted(settings, AlertKind::TaskFailed) || wanted(settings, AlertKind::TaskSucceeded))
    task_alerts(store, account, first, seen, out);
  if (wanted(settings, AlertKind::JobCompleted)) job_alerts(store, account, first, seen, out);
  if (wanted(settings, AlertKind::ResizeDone)) pool_alerts(store, account, first, seen, out);
  if (!first && wanted(settings, AlertKind::Preempted) && !preemption_news.empty())
    out.push_back({AlertKind::Preempted, account, "", "", "", preemption_news});
  std::erase_if(out, [&](const Alert& a) { return !wanted(settings, a.kind); });
  return out;
}

std::vector<Alert> watch_alerts(Store& store, const AlertConfig& config,
                                const std::map<std::string, std::string>& news, AlertWatch& watch) {
  std::vector<Alert> out;
  for (const auto& [account, settings] : config) {
    auto it = news.find(account);
    auto more = account_alerts(store, account, settings, it == news.end() ? "" : it->second, watch);
    out.insert(out.end(), more.begin(), more.end());
  }
  return out;
}

}  // namespace trainyard
