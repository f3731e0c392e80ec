// The sweep table's reads of metric series, kept together: which series of a run the table
// summarizes is decided here.
#include <algorithm>
#include <cmath>

#include "sweep_table.hpp"

namespace trainyard {

void summarize_run(Store& store, const SweepMetric& m, SweepRow& row) {
  row.final_value = row.best_value = std::nullopt;
  row.tail.clear();
  if (m.name.empty()) return;
  const Task& t = row.task;
  auto pts = store.metric_points(t.account, t.job_id, t.id, m.name);
  if (!pts || pts->empty()) return;
  for (const auto& p : *pts) {
    if (std::isnan(p.value)) continue;
    if (!row.best_value || better_value(m, p.value, *row.best_value)) row.best_value = p.value;
  }
  row.final_value = pts->back().value;
  size_t first = pts->size() > kSweepTrendPoints ? pts->size() - kSweepTrendPoints : 0;
  for (size_t i = first; i < pts->size(); ++i) row.tail.push_back((*pts)[i].value);
}

std::vector<double> sweep_curve(Store& store, const std::string& account, const std::string& job,
                                const std::string& task, const SweepMetric& m) {
  std::vector<double> values;
  if (auto pts = store.metric_points(account, job, task, m.name))
    for (const auto& p : *pts) values.push_back(p.value);
  return values;
}

Result<std::vector<std::string>> job_metric_names(Store& store, const std::vector<Task>& tasks) {
  std::vector<std::string> out;
  for (const auto& t : tasks) {
    auto names = store.metric_names(t.account, t.job_id, t.id);
    if (!names) return names.error();
    for (auto& n : *names)
      if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(std::move(n));
  }
  return out;
}

}  // namespace trainyard
