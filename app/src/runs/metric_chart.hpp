// Turning a task's stored metric series into what the tables and charts show.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/context.hpp"
#include "store/store.hpp"
#include "widgets/charts.hpp"

namespace trainyard {

/// One curve of a metric across a task's attempts: a NaN between attempts breaks the line and a
/// marker (`attempt N`) stands where each later attempt begins.
struct AttemptCurve {
  std::vector<double> values;
  std::vector<ChartMarker> markers;
  std::optional<double> last;  ///< the last value printed (of the latest attempt)
  size_t points = 0;           ///< stored points, all attempts
};

/// The curve of `points` (one name and stream, in attempt then printed order).
AttemptCurve attempt_curve(const std::vector<MetricPoint>& points);

/// One chart of a task: a metric name in one stream.
struct MetricChartKey {
  std::string name;
  std::string stream;
};

/// The charts a task has, by first appearance, the tables' stream first.
std::vector<MetricChartKey> metric_charts(const std::vector<MetricSeries>& series);

/// The main metric of a task for the tables: the job's configured one, else main_metric() of
/// the tables' stream (Store::table_metrics); empty name when it has none.
struct MainMetric {
  std::string name;
  std::string stream;
  int attempt = 0;
};
MainMetric main_metric_of_task(AppContext& ctx, const Task& t);

}  // namespace trainyard
