// Internal: which runs of a job `rm --keep-best` keeps, by the one ranking of runs
// (ranks_before in sweep_table.hpp) that the sweep and compare views show.
#pragma once

#include <string>
#include <vector>

#include "app/context.hpp"
#include "sweep_table.hpp"

namespace trainyard {

/// What ranks a job's runs, as `rm --keep-best` takes it: the metric (empty: the job's main
/// metric, as the sweep view starts with), `min` or `max` (empty: by the metric's name), and
/// which value of each run.
struct RankingRule {
  std::string metric, direction;
  RankBy by = RankBy::Final;
};

/// Finished runs of one job split into the `keep` best and the rest.
struct RunRanking {
  SweepMetric metric;          ///< name empty: the job has no such metric, nothing is ranked
  std::vector<SweepRow> kept;  ///< best first: runs that did not fail and have a value
  std::vector<SweepRow> rest;  ///< the others: past the `keep` first, failed, or without a value
};

/// Ranks `finished` (runs of `job`) by `rule` and keeps the `keep` best; `all_of_job` names the
/// job's metrics (a run still going may be the only one that printed one yet).
Result<RunRanking> rank_runs(AppContext& ctx, const std::string& job,
                             const std::vector<Task>& finished, const std::vector<Task>& all_of_job,
                             const RankingRule& rule, int keep);

}  // namespace trainyard
