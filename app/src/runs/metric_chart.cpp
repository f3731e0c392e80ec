#include "metric_chart.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sync/metric_parser.hpp"

namespace trainyard {

AttemptCurve attempt_curve(const std::vector<MetricPoint>& points) {
  AttemptCurve out;
  out.points = points.size();
  for (size_t i = 0; i < points.size(); ++i) {
    if (i > 0 && points[i].attempt != points[i - 1].attempt) {
      out.values.push_back(std::nan(""));
      out.markers.push_back(
          ChartMarker{out.values.size(), fmt::format("attempt {}", points[i].attempt)});
    }
    out.values.push_back(points[i].value);
  }
  if (!points.empty()) out.last = points.back().value;
  return out;
}

std::vector<MetricChartKey> metric_charts(const std::vector<MetricSeries>& series) {
  std::vector<MetricChartKey> out;
  auto first = table_stream(series);
  for (bool table : {true, false}) {
    for (const auto& s : series) {
      if ((s.stream == first) != table) continue;
      bool seen = std::any_of(out.begin(), out.end(), [&](const MetricChartKey& k) {
        return k.name == s.name && k.stream == s.stream;
      });
      if (!seen) out.push_back(MetricChartKey{s.name, s.stream});
    }
  }
  return out;
}

MainMetric main_metric_of_task(AppContext& ctx, const Task& t) {
  auto table = ctx.store->table_metrics(t.account, t.job_id, t.id);
  if (!table || table->names.empty()) return {};
  auto configured = ctx.settings.main_metric.find(t.job_id);
  auto name =
      configured != ctx.settings.main_metric.end() ? configured->second : main_metric(table->names);
  return MainMetric{name, table->stream, table->attempt};
}

}  // namespace trainyard
