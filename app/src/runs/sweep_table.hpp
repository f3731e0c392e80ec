// Internal: the sweep table that the TUI's sweep pane and `trainyard sweep` both show: one row per
// run of a job, its parameters by name, and the chosen metric's final and best values and trend.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/settings.hpp"
#include "core/entities.hpp"
#include "store/store.hpp"

namespace trainyard {

/// Points kept for a row's trend (the sparkline).
inline constexpr size_t kSweepTrendPoints = 8;

/// One run of a sweep: its parameters and the metric's summary.
struct SweepRow {
  Task task;
  std::vector<std::string> params;  ///< one value per parameter name ("" when absent)
  std::optional<double> final_value, best_value;
  std::vector<double> tail;  ///< the newest points of the metric (trend)
  std::string stream;        ///< the stream summarized (Store::table_metrics), empty without one
  int attempt = 0;           ///< the attempt summarized: the stream's latest
};

/// Which value of a run's series ranks it: the last one (the model the run ends with, the
/// default) or the best one it reached on the way.
enum class RankBy { Final, Best };

/// `final` or `best`, as `--by` takes it.
const char* to_string(RankBy by);

/// Which metric ranks the runs, which way, and by which of its values.
struct SweepMetric {
  std::string name;  ///< empty: the job has no metric yet
  bool lower_is_better = true;
  RankBy by = RankBy::Final;
  bool operator==(const SweepMetric&) const = default;
};

/// The whole table of one job, rows in the store's order.
struct SweepTable {
  std::vector<std::string> param_names;
  SweepMetric metric;
  std::vector<SweepRow> rows;
  std::optional<std::string> best;  ///< id of the best run
};

/// `best by final loss ↓ min`: the rule that picks the best run.
std::string sweep_metric_title(const SweepMetric& m);

/// A value as the table shows it: 4 significant digits, `-` for none.
std::string sweep_value_text(const std::optional<double>& v);

/// The trend as a sparkline of kSweepTrendPoints cells.
std::string sweep_trend_text(const std::vector<double>& tail);

/// `id`, or `id (display name)`; not sanitized.
std::string sweep_run_label(const Task& t);

/// `best by final loss ↓ min · g1 (baseline) 0.2639`: the rule and the best run with the value
/// it was ranked by.
std::string sweep_header(const SweepMetric& m, const std::vector<SweepRow>& rows,
                         const std::optional<std::string>& best);

/// A run's parameters by name: those stored when it was made (positional ones named after the
/// command line's flags), else those of its command line (`trainyard run`, Batch tasks); then
/// the values its output printed as configuration (Store::output_parameters) under names not
/// given yet; never a name the run reports as a metric.
std::vector<NameValue> run_parameters(Store& store, const Task& t);

/// Puts `params` into `row`, in the columns of `names` (adding names it lacks).
void place_parameters(std::vector<std::string>& names, SweepRow& row,
                      const std::vector<NameValue>& params);

/// Fills the row's final and best values and trend from the metric's series in the run's table
/// stream and latest attempt (Store::table_metrics), and notes which stream and attempt.
void summarize_run(Store& store, const SweepMetric& m, SweepRow& row);

/// Whether `a` beats `b` under `m`.
bool better_value(const SweepMetric& m, double a, double b);

/// The value `row` is ranked by under `m`: its final or its best; nullopt when it has none or it
/// is NaN.
std::optional<double> ranked_value(const SweepMetric& m, const SweepRow& row);

/// The one ranking of runs, used by the sweep view, `trainyard sweep`, the compare view and
/// `rm --keep-best`: runs that succeeded first, then runs not finished, then runs that failed;
/// within each, the better ranked value first and runs without one last; then by id.
bool ranks_before(const SweepMetric& m, const SweepRow& a, const SweepRow& b);

/// Sorts `rows` by ranks_before.
void rank_rows(const SweepMetric& m, std::vector<SweepRow>& rows);

/// Whether `row` may be called best: it has a ranked value and did not fail.
bool may_be_best(const SweepMetric& m, const SweepRow& row);

/// The best run: the first by ranks_before that may_be_best; nullopt when none may.
std::optional<std::string> best_run(const SweepMetric& m, const std::vector<SweepRow>& rows);

/// The values of the metric's series that `row` summarizes, in printed order (the chart's curve).
std::vector<double> sweep_curve(Store& store, const SweepRow& row, const SweepMetric& m);

/// The last value of `metric` in the run's table stream and latest attempt, as summarize_run's
/// FINAL; nullopt when there is none or it is NaN.
std::optional<double> table_final_value(Store& store, const Task& t, const std::string& metric);

/// The stream the rows' curves come from (a chart title), `mixed` when they differ, empty when
/// none has one.
std::string sweep_chart_stream(const std::vector<const SweepRow*>& rows);

/// The metric names of a job's runs in their table streams, in order of first appearance.
Result<std::vector<std::string>> job_metric_names(Store& store, const std::vector<Task>& tasks);

/// The metric a job's table starts with: the configured one, else the usual main metric.
SweepMetric initial_sweep_metric(const Settings& settings, const std::string& job,
                                 const std::vector<std::string>& names);

/// Reads every run of a job and summarizes `metric` (nullopt: initial_sweep_metric).
Result<SweepTable> load_sweep_table(Store& store, const Settings& settings,
                                    const std::string& account, const std::string& job,
                                    const std::optional<SweepMetric>& metric);

}  // namespace trainyard
