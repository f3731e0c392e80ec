#include "run_ranking.hpp"

#include <algorithm>

#include "sync/metric_parser.hpp"

namespace trainyard {
namespace {

// The rule's metric for `job`; name empty when the job has no metric, or not the one asked for.
Result<SweepMetric> job_metric(AppContext& ctx, const std::string& job,
                               const std::vector<Task>& all_of_job, const RankingRule& rule) {
  auto names = job_metric_names(*ctx.store, all_of_job);
  if (!names) return names.error();
  SweepMetric m = initial_sweep_metric(ctx.settings, job, *names);
  if (!rule.metric.empty()) {
    bool known = std::find(names->begin(), names->end(), rule.metric) != names->end();
    m.name = known ? rule.metric : "";
    m.lower_is_better = metric_lower_is_better(rule.metric);
  }
  if (!rule.direction.empty()) m.lower_is_better = rule.direction == "min";
  m.by = rule.by;
  return m;
}

}  // namespace

Result<RunRanking> rank_runs(AppContext& ctx, const std::string& job,
                             const std::vector<Task>& finished, const std::vector<Task>& all_of_job,
                             const RankingRule& rule, int keep) {
  RunRanking r;
  auto metric = job_metric(ctx, job, all_of_job, rule);
  if (!metric) return metric.error();
  r.metric = *metric;
  if (r.metric.name.empty()) return r;
  std::vector<SweepRow> rows;
  for (const auto& t : finished) {
    SweepRow row;
    row.task = t;
    summarize_run(*ctx.store, r.metric, row);
    rows.push_back(std::move(row));
  }
  rank_rows(r.metric, rows);
  for (auto& row : rows) {
    if (static_cast<int>(r.kept.size()) < keep && may_be_best(r.metric, row))
      r.kept.push_back(std::move(row));
    else
      r.rest.push_back(std::move(row));
  }
  return r;
}

}  // namespace trainyard
