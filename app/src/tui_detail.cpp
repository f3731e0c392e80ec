// The task detail pane: its facts and one chart per metric.
#include <fmt/format.h>

#include "core/sanitizer.hpp"
#include "tui_state.hpp"
#include "widgets/charts.hpp"

namespace trainyard {
namespace {

std::vector<std::pair<std::string, std::string>> facts(const Task& t) {
  const auto& e = t.execution_info;
  auto time = [](const std::optional<Timestamp>& ts) {
    return ts ? format_iso8601(*ts).substr(0, 19) + "Z" : "-";
  };
  std::string outcome = e.result ? std::string(to_wire(*e.result)) : "-";
  if (e.failure_info)
    outcome += " · " + e.failure_info->code + ": " + sanitize_text(e.failure_info->message);
  return {{"state", std::string(to_wire(t.state))},
          {"exit code", e.exit_code ? std::to_string(*e.exit_code) : "-"},
          {"result", outcome},
          {"retries", fmt::format("{} of {}", e.retry_count, t.constraints.max_task_retry_count)},
          {"started", time(e.start_time)},
          {"ended", time(e.end_time)},
          {"slots", std::to_string(t.required_slots)},
          {"command", sanitize_text(t.command_line)}};
}

const Role kSeriesRoles[] = {Role::ChartSeries1, Role::ChartSeries2, Role::ChartSeries3,
                             Role::ChartSeries4, Role::ChartSeries5, Role::ChartSeries6};

void render_chart(AppContext& ctx, const Task& t, const std::string& name, Role role, Canvas& c,
                  Rect cell) {
  auto pts = ctx.store->metric_points(t.account, t.job_id, t.id, name);
  LineChartVm vm;
  bool any = pts && !pts->empty();
  vm.title = fmt::format("{} ({})", name, any ? fmt::format("{:.4g}", pts->back().value) : "-");
  Series s;
  s.name = name;
  s.role = role;
  if (pts)
    for (const auto& p : *pts) s.values.push_back(p.value);
  vm.x_left = "0";
  vm.x_right = any ? fmt::format("{} points", pts->size()) : "";
  vm.series.push_back(std::move(s));
  render_line_chart(vm, c, cell);
}

// How many charts of at least 4 rows fit, and their height.
std::pair<int, int> chart_layout(int n, int per_row, int height) {
  int rows = (n + per_row - 1) / per_row;
  int h = std::max(4, height / std::max(1, rows));
  return {std::min(n, (height / h) * per_row), h};
}

void render_charts(AppContext& ctx, const Task& t, Canvas& c, Rect r) {
  auto names = ctx.store->metric_names(t.account, t.job_id, t.id);
  if (!names || names->empty()) {
    c.draw_text(r.x, r.y, "no metrics yet (lines such as loss=0.31 appear here as charts)",
                Role::Dim, r.w);
    return;
  }
  int per_row = r.w >= 100 ? 2 : 1;
  int n = static_cast<int>(names->size());
  auto [shown, h] = chart_layout(n, per_row, r.h);
  if (shown < n) {
    // Say what did not fit rather than dropping charts silently.
    std::tie(shown, h) = chart_layout(n, per_row, r.h - 1);
    c.draw_text_truncated(
        r.x, r.bottom() - 1,
        fmt::format("+{} more metric(s): a taller terminal shows them", n - shown), Role::Dim, r.w);
  }
  for (int i = 0; i < shown; ++i) {
    int y = r.y + (i / per_row) * h;
    Rect cell{r.x + (i % per_row) * (r.w / per_row), y, r.w / per_row, h};
    render_chart(ctx, t, (*names)[static_cast<size_t>(i)], kSeriesRoles[i % 6], c, cell);
  }
}

}  // namespace

void render_detail(AppContext& ctx, TuiState& st, Canvas& c, Rect r) {
  auto t = ctx.store->task(st.top().account, st.top().job, st.top().task);
  if (!t || !t->has_value()) {
    c.draw_text(r.x, r.y, "task not found", Role::StatusError, r.w);
    return;
  }
  auto rows = facts(**t);
  int y = r.y;
  for (const auto& [k, v] : rows) {
    if (y >= r.bottom()) return;
    c.draw_text(r.x, y, k, Role::Label, 12);
    c.draw_text_truncated(r.x + 12, y++, v, Role::Default, r.w - 12);
  }
  render_charts(ctx, **t, c, Rect{r.x, y + 1, r.w, r.bottom() - y - 1});
}

}  // namespace trainyard
