// The sweep table's reads of metric series, kept together: which series of a run the table
// summarizes is decided here. It is the one the tables show (Store::table_metrics): the stream
// with epoch lines, else stdout, else stderr, and its latest attempt, so a retried run is
// judged by its last attempt rather than by the attempts before it.
#include <algorithm>
#include <cmath>

#include "sweep_table.hpp"

namespace trainyard {
namespace {

// Every point of `metric` in the run's table series, in printed order.
std::vector<MetricPoint> table_points(Store& store, const Task& t, const std::string& stream,
                                      int attempt, const std::string& metric) {
  if (stream.empty() || metric.empty()) return {};
  auto pts = store.metric_tail(t.account, t.job_id, t.id, metric, stream, attempt, kMetricPointCap);
  return pts ? std::move(*pts) : std::vector<MetricPoint>{};
}

}  // namespace

void summarize_run(Store& store, const SweepMetric& m, SweepRow& row) {
  row.final_value = row.best_value = std::nullopt;
  row.tail.clear();
  const Task& t = row.task;
  auto table = store.table_metrics(t.account, t.job_id, t.id);
  row.stream = table ? table->stream : std::string();
  row.attempt = table ? table->attempt : 0;
  auto pts = table_points(store, t, row.stream, row.attempt, m.name);
  if (pts.empty()) return;
  for (const auto& p : pts) {
    if (std::isnan(p.value)) continue;
    if (!row.best_value || better_value(m, p.value, *row.best_value)) row.best_value = p.value;
  }
  row.final_value = pts.back().value;
  size_t first = pts.size() > kSweepTrendPoints ? pts.size() - kSweepTrendPoints : 0;
  for (size_t i = first; i < pts.size(); ++i) row.tail.push_back(pts[i].value);
}

std::vector<double> sweep_curve(Store& store, const SweepRow& row, const SweepMetric& m) {
  std::vector<double> values;
  for (const auto& p : table_points(store, row.task, row.stream, row.attempt, m.name))
    values.push_back(p.value);
  return values;
}

std::optional<double> table_final_value(Store& store, const Task& t, const std::string& metric) {
  auto table = store.table_metrics(t.account, t.job_id, t.id);
  if (!table || table->stream.empty() || metric.empty()) return std::nullopt;
  auto last =
      store.metric_tail(t.account, t.job_id, t.id, metric, table->stream, table->attempt, 1);
  if (!last || last->empty() || std::isnan(last->back().value)) return std::nullopt;
  return last->back().value;
}

std::string sweep_chart_stream(const std::vector<const SweepRow*>& rows) {
  std::string out;
  for (const auto* row : rows) {
    if (row->stream.empty()) continue;
    if (!out.empty() && out != row->stream) return "mixed";
    out = row->stream;
  }
  return out;
}

Result<std::vector<std::string>> job_metric_names(Store& store, const std::vector<Task>& tasks) {
  std::vector<std::string> out;
  for (const auto& t : tasks) {
    auto table = store.table_metrics(t.account, t.job_id, t.id);
    if (!table) return table.error();
    for (auto& n : table->names)
      if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(std::move(n));
  }
  return out;
}

}  // namespace trainyard
