#include "run_ranking.hpp"

#include <algorithm>

#include "sweep_table.hpp"
#include "sync/metric_parser.hpp"

namespace trainyard {

std::string job_main_metric(AppContext& ctx, const std::string& job,
                            const std::vector<Task>& tasks) {
  auto names = job_metric_names(*ctx.store, tasks);
  return initial_sweep_metric(ctx.settings, job, names.value_or(std::vector<std::string>{})).name;
}

std::optional<double> final_value(AppContext& ctx, const Task& t, const std::string& metric) {
  return table_final_value(*ctx.store, t, metric);
}

RunRanking rank_runs(AppContext& ctx, const std::string& job, const std::vector<Task>& finished,
                     const std::vector<Task>& all_of_job, int keep) {
  RunRanking r;
  r.metric = job_main_metric(ctx, job, all_of_job);
  r.lower_is_better = metric_lower_is_better(r.metric);
  if (r.metric.empty()) return r;
  std::vector<std::pair<Task, double>> valued;
  for (const auto& t : finished) {
    if (auto v = final_value(ctx, t, r.metric))
      valued.emplace_back(t, *v);
    else
      r.rest.push_back(t);
  }
  // Best first; equal values by id, so the choice is the same every time.
  std::sort(valued.begin(), valued.end(), [&](const auto& a, const auto& b) {
    if (a.second != b.second) return r.lower_is_better ? a.second < b.second : a.second > b.second;
    return a.first.id < b.first.id;
  });
  for (auto& v : valued) {
    if (static_cast<int>(r.best.size()) < keep)
      r.best.push_back(std::move(v));
    else
      r.rest.push_back(std::move(v.first));
  }
  return r;
}

}  // namespace trainyard
