// Comparing marked runs: summaries come from the Sweep pane's own reads (summarize_run,
// sweep_curve), so a run's FINAL and BEST are the same in both panes.
#include "compare_runs.hpp"

#include <algorithm>

#include "sync/metric_parser.hpp"

namespace trainyard {
namespace {

std::optional<Task> stored_task(Store& store, const RunRef& r) {
  auto t = store.task(r.account, r.job, r.task);
  if (!t || !t->has_value()) return std::nullopt;
  return std::move(**t);
}

std::vector<Task> tasks_of(const std::vector<CompareRow>& rows) {
  std::vector<Task> out;
  for (const auto& r : rows)
    if (r.run) out.push_back(r.run->task);
  return out;
}

// The chosen metric, else the main metric of the first run's job (its configured one).
SweepMetric metric_for(const Settings& settings, const CompareSet& set,
                       const std::vector<std::string>& names) {
  if (set.metric) return *set.metric;
  std::string job = set.runs.empty() ? std::string() : set.runs.front().job;
  return initial_sweep_metric(settings, job, names);
}

bool one_job(const std::vector<RunRef>& runs) {
  for (const auto& r : runs)
    if (r.account != runs.front().account || r.job != runs.front().job) return false;
  return true;
}

bool one_account(const std::vector<RunRef>& runs) {
  for (const auto& r : runs)
    if (r.account != runs.front().account) return false;
  return true;
}

}  // namespace

bool toggle_compare(CompareSet& set, const RunRef& run) {
  auto it = std::find(set.runs.begin(), set.runs.end(), run);
  if (it != set.runs.end()) {
    set.runs.erase(it);
    return false;
  }
  set.runs.push_back(run);
  return true;
}

std::string compare_label(const std::vector<RunRef>& runs, const RunRef& run) {
  if (one_job(runs)) return run.task;
  if (one_account(runs)) return run.job + "/" + run.task;
  return run.account + "/" + run.job + "/" + run.task;
}

CompareTable read_compare_table(Store& store, const Settings& settings, const CompareSet& set) {
  CompareTable out;
  for (const auto& ref : set.runs) {
    CompareRow row{ref, std::nullopt, {}};
    if (auto t = stored_task(store, ref)) {
      row.run = SweepRow{};
      row.run->task = std::move(*t);
    }
    out.rows.push_back(std::move(row));
  }
  auto names = job_metric_names(store, tasks_of(out.rows));
  out.metric_names = names ? std::move(*names) : std::vector<std::string>{};
  out.metric = metric_for(settings, set, out.metric_names);
  for (auto& row : out.rows) {
    if (!row.run) continue;
    place_parameters(out.param_names, *row.run, run_parameters(store, row.run->task));
    summarize_run(store, out.metric, *row.run);
    row.curve = sweep_curve(store, *row.run, out.metric);
  }
  for (auto& row : out.rows)
    if (row.run) row.run->params.resize(out.param_names.size());
  return out;
}

SweepMetric next_compare_metric(const std::vector<std::string>& names, const std::string& current) {
  if (names.empty()) return {};
  auto it = std::find(names.begin(), names.end(), current);
  auto next = it == names.end() || it + 1 == names.end() ? names.front() : *(it + 1);
  return {next, metric_lower_is_better(next)};
}

}  // namespace trainyard
