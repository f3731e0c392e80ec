// Internal: comparing runs from any job and account: the set the user marked, and what the
// Compare pane shows of them (curves of one metric, parameters, final and best values).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/settings.hpp"
#include "store/store.hpp"
#include "sweep_table.hpp"

namespace trainyard {

/// A task of any job of any account.
struct RunRef {
  std::string account, job, task;
  bool operator==(const RunRef&) const = default;
};

/// The runs marked for comparison, in marking order, and the metric chosen for them.
struct CompareSet {
  std::vector<RunRef> runs;
  std::optional<SweepMetric> metric;  ///< none: the first run's job's main metric
};

/// Adds `run` to the set, or removes it when it is there; true when it was added.
bool toggle_compare(CompareSet& set, const RunRef& run);

/// `g1`, `lr-grid/g1` or `emu/lr-grid/g1`: the shortest label that tells the set's runs apart
/// (the task id when every run is of one job of one account). Not sanitized.
std::string compare_label(const std::vector<RunRef>& runs, const RunRef& run);

/// One compared run: its task (none: no longer in the store), its parameters under the pane's
/// parameter names, and the metric's summary and curve as the Sweep pane reads them.
struct CompareRow {
  RunRef ref;
  std::optional<SweepRow> run;
  std::vector<double> curve;  ///< the metric's values in printed order
};

/// What the Compare pane shows, read off the UI thread.
struct CompareTable {
  SweepMetric metric;
  std::vector<std::string> metric_names;  ///< every run's table metrics, by first appearance
  std::vector<std::string> param_names;   ///< the union of the runs' parameter names
  std::vector<CompareRow> rows;           ///< in marking order
};

/// Reads the set's runs: each task's parameters (run_parameters), and the metric's final
/// (last point) and best (least or greatest by the metric's direction) values and curve.
CompareTable read_compare_table(Store& store, const Settings& settings, const CompareSet& set);

/// The metric after `current` among `names` (wrapping), with its usual direction; empty name
/// when there are none.
SweepMetric next_compare_metric(const std::vector<std::string>& names, const std::string& current);

}  // namespace trainyard
