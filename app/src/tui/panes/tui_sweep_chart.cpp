// The sweep pane's chart: the main metric's curves of the marked runs (else the best few).
#include <algorithm>

#include <fmt/format.h>

#include "core/sanitizer.hpp"
#include "tui_state.hpp"
#include "widgets/charts.hpp"

namespace trainyard {
namespace {

constexpr size_t kMaxCurves = 6;  // one per chart series role
constexpr size_t kTopRuns = 5;    // runs charted when none is marked

// The runs the chart shows: the marked ones, else the best few.
std::vector<std::string> chart_runs(const SweepState& sw) {
  if (!sw.marked.empty())
    return {sw.marked.begin(), sw.marked.begin() + std::min(sw.marked.size(), kMaxCurves)};
  std::vector<const SweepRow*> ranked;
  for (const auto& r : sw.rows)
    if (ranked_value(sw.metric, r)) ranked.push_back(&r);
  std::stable_sort(ranked.begin(), ranked.end(), [&](const SweepRow* a, const SweepRow* b) {
    return ranks_before(sw.metric, *a, *b);
  });
  std::vector<std::string> out;
  for (size_t i = 0; i < ranked.size() && i < kTopRuns; ++i) out.push_back(ranked[i]->task.id);
  return out;
}

const SweepRow* row_of(const SweepState& sw, const std::string& id) {
  for (const auto& r : sw.rows)
    if (r.task.id == id) return &r;
  return nullptr;
}

// A run's curve is what its FINAL and BEST summarize: its table stream, its latest attempt.
const std::vector<double>& curve(AppContext& ctx, TuiState& st, const std::string& id) {
  auto& sw = sweep_state(st);
  auto hit = sw.curves.find(id);
  if (hit != sw.curves.end()) return hit->second;
  const auto* row = row_of(sw, id);
  auto values = row ? sweep_curve(*ctx.store, *row, sw.metric) : std::vector<double>{};
  return sw.curves.emplace(id, std::move(values)).first->second;
}

// `loss (stdout) · top 5 by best`: the metric, the stream its curves come from, the runs.
std::string chart_title(const SweepState& sw, const std::vector<std::string>& runs) {
  std::vector<const SweepRow*> rows;
  for (const auto& id : runs)
    if (const auto* row = row_of(sw, id)) rows.push_back(row);
  auto stream = sweep_chart_stream(rows);
  auto metric = stream.empty() ? sw.metric.name : fmt::format("{} ({})", sw.metric.name, stream);
  size_t shown = runs.size();
  if (sw.marked.empty())
    return fmt::format("{} · top {} by {} (Space marks runs)", metric, shown,
                       to_string(sw.metric.by));
  if (sw.marked.size() > shown)
    return fmt::format("{} · {} of {} marked runs", metric, shown, sw.marked.size());
  return fmt::format("{} · {} marked run(s)", metric, shown);
}

}  // namespace

Role sweep_series_role(size_t i) {
  static const Role roles[] = {Role::ChartSeries1, Role::ChartSeries2, Role::ChartSeries3,
                               Role::ChartSeries4, Role::ChartSeries5, Role::ChartSeries6};
  return roles[i % kMaxCurves];
}

LineChartVm sweep_chart_vm(AppContext& ctx, TuiState& st) {
  auto& sw = sweep_state(st);
  auto runs = chart_runs(sw);
  LineChartVm vm;
  if (sw.metric.name.empty() || runs.empty()) return vm;
  vm.title = chart_title(sw, runs);
  size_t longest = 0;
  for (size_t i = 0; i < runs.size(); ++i) {
    Series s;
    s.name = sanitize_text(runs[i]);
    s.values = curve(ctx, st, runs[i]);
    s.role = sweep_series_role(i);
    longest = std::max(longest, s.values.size());
    vm.series.push_back(std::move(s));
  }
  // Assigned from std::string: GCC 12 at -O2 misreports `= "0"` here as overlapping (-Wrestrict).
  vm.x_left = std::string(1, '0');
  vm.x_right = fmt::format("{} points", longest);
  return vm;
}

void render_sweep_chart(const LineChartVm& vm, Canvas& c, Rect r) {
  if (vm.series.empty())
    c.draw_text(r.x, r.y, "no metric points yet to chart", Role::Dim, r.w);
  else
    render_line_chart(vm, c, r);
}

}  // namespace trainyard
