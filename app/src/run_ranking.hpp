// Internal: which runs of a job are best by its main metric (the sweep view and `rm --keep-best`).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/context.hpp"

namespace trainyard {

/// The metric a job's runs are compared by, as the sweep view starts with it (its `mainMetric` in
/// the config, else the usual main metric of its runs' names); empty when no run has metrics.
std::string job_main_metric(AppContext& ctx, const std::string& job,
                            const std::vector<Task>& tasks);

/// The last value of `metric` a run printed in its table stream and latest attempt (the sweep
/// view's FINAL); nullopt when it has none (or it is NaN).
std::optional<double> final_value(AppContext& ctx, const Task& t, const std::string& metric);

/// Finished runs of one job split by their final value of the job's main metric.
struct RunRanking {
  std::string metric;  ///< empty: no run of the job has a metric, nothing is ranked
  bool lower_is_better = true;
  std::vector<std::pair<Task, double>> best;  ///< the `keep` best, best first, with their values
  std::vector<Task> rest;                     ///< the others (runs without a value included)
};

/// Ranks `finished` (runs of `job`) and keeps the `keep` best; `all_of_job` names the metric.
RunRanking rank_runs(AppContext& ctx, const std::string& job, const std::vector<Task>& finished,
                     const std::vector<Task>& all_of_job, int keep);

}  // namespace trainyard
