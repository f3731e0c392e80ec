// The task detail pane: its facts and one chart per metric.
#include <fmt/format.h>

#include "core/sanitizer.hpp"
#include "metric_chart.hpp"
#include "task_timeline.hpp"
#include "tui_state.hpp"
#include "widgets/charts.hpp"

namespace trainyard {
namespace {

/// What the Detail pane shows of its task, read on the reader's connection.
struct DetailData : PaneData {
  std::optional<Task> task;                      ///< none: not found
  std::string waiting;                           ///< why a local run waits although it could start
  std::optional<std::vector<Subtask>> subtasks;  ///< a multi-instance task's; none: unreadable
  std::vector<MetricChartKey> charts;
  std::vector<std::vector<MetricPoint>> points;  ///< by chart
  std::vector<TimelineEvent> timeline;           ///< the task's recorded state changes
};

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
          {"retries", retries_text(t)},
          {"started", time(e.start_time)},
          {"ended", time(e.end_time)},
          {"slots", std::to_string(t.required_slots)},
          {"command", sanitize_text(t.command_line)}};
}

// What a multi-instance task adds to its facts.
void add_instance_facts(const Task& t, std::vector<std::pair<std::string, std::string>>& rows) {
  if (!t.multi_instance) return;
  const auto& m = *t.multi_instance;
  rows.insert(rows.end() - 1, {"instances", fmt::format("{} ({} slot(s) each)",
                                                        m.number_of_instances, t.required_slots)});
  rows.push_back({"coord cmd", m.coordination_command_line.empty()
                                   ? "-"
                                   : sanitize_text(m.coordination_command_line)});
}

// Why a local task waits although it could start (NVML cannot be read).
std::string waiting_reason(AppContext& ctx, const Task& t) {
  if (t.account != kLocalAccount || t.state == TaskState::Completed) return "";
  auto run = ctx.store->local_run(t.job_id, t.id);
  return run && run->has_value() ? (*run)->waiting_reason : "";
}

std::string clock_time(const std::optional<Timestamp>& ts) {
  return ts ? format_clock_utc(*ts) : "-";
}

std::string subtask_place(const Subtask& s) {
  return s.node_info ? sanitize_text(s.node_info->node_id) : "-";
}

std::string subtask_row(const Subtask& s) {
  const auto& e = s.execution_info;
  std::string note = e.failure_info ? e.failure_info->code : "";
  return fmt::format("{:>3}  {:<10} {:<22} {:>5}  {:<8}  {:<8}  {}", s.id, to_wire(s.state),
                     subtask_place(s), e.exit_code ? std::to_string(*e.exit_code) : "-",
                     clock_time(e.start_time), clock_time(e.end_time), note);
}

// A multi-instance task's instances: the primary (the task itself), then its subtasks. Returns
// the rows drawn.
int render_subtasks(const DetailData& d, Canvas& c, Rect r) {
  const Task& t = *d.task;
  if (!t.multi_instance || r.h < 3) return 0;
  const auto& subs = d.subtasks;
  std::vector<std::string> lines{
      fmt::format("{:>3}  {:<10} {:<22} {:>5}  {:<8}  {:<8}  {}", "#", "STATE", "NODE", "EXIT",
                  "STARTED", "ENDED", "NOTE"),
      fmt::format("{:>3}  {:<10} {:<22} {:>5}  {:<8}  {:<8}  {}", 0, to_wire(t.state), "primary",
                  "", clock_time(t.execution_info.start_time),
                  clock_time(t.execution_info.end_time), "runs the command")};
  if (subs)
    for (const auto& s : *subs) lines.push_back(subtask_row(s));
  if (subs && subs->empty()) lines.push_back("     no subtask information yet");
  const int shown = std::min(static_cast<int>(lines.size()), r.h);
  for (int i = 0; i < shown; ++i) {
    bool last_cut = i == shown - 1 && shown < static_cast<int>(lines.size());
    auto text = last_cut ? fmt::format("     +{} more instance(s): a taller terminal shows them",
                                       static_cast<int>(lines.size()) - shown + 1)
                         : lines[static_cast<size_t>(i)];
    c.draw_text_truncated(r.x + 2, r.y + i, text, i == 0 || last_cut ? Role::Dim : Role::Default,
                          r.w - 2);
  }
  return shown;
}

// The task's timeline in at most `r.h` lines (the latest events when they do not all fit).
// Returns the rows drawn.
int render_timeline(const DetailData& d, Canvas& c, Rect r) {
  auto lines = timeline_lines(d.timeline, r.w - 12, r.h);
  for (size_t i = 0; i < lines.size(); ++i) {
    int y = r.y + static_cast<int>(i);
    if (i == 0) c.draw_text(r.x, y, "timeline", Role::Label, 12);
    c.draw_text_truncated(r.x + 12, y, lines[i], Role::Default, r.w - 12);
  }
  return static_cast<int>(lines.size());
}

const Role kSeriesRoles[] = {Role::ChartSeries1, Role::ChartSeries2, Role::ChartSeries3,
                             Role::ChartSeries4, Role::ChartSeries5, Role::ChartSeries6};

// One metric of one stream, every attempt; the title says which stream and the last value.
void render_chart(const MetricChartKey& key, const std::vector<MetricPoint>& pts, Role role,
                  Canvas& c, Rect cell) {
  auto curve = attempt_curve(pts);
  LineChartVm vm;
  vm.title = fmt::format("{} · {} ({})", key.name, key.stream,
                         curve.last ? fmt::format("{:.4g}", *curve.last) : "-");
  vm.series.push_back(Series{key.stream, std::move(curve.values), role});
  vm.markers = std::move(curve.markers);
  vm.x_left = "0";
  vm.x_right = curve.points ? fmt::format("{} points", curve.points) : "";
  render_line_chart(vm, c, cell);
}

// How many charts of at least 4 rows fit, and their height.
std::pair<int, int> chart_layout(int n, int per_row, int height) {
  int rows = (n + per_row - 1) / per_row;
  int h = std::max(4, height / std::max(1, rows));
  return {std::min(n, (height / h) * per_row), h};
}

// `values  test_loss (stdout) 0.0185 · test_accuracy (stdout) 0.9942`: the series of one point (an
// evaluation after training), which a chart would draw on an axis of its own single value.
std::string single_values_text(const DetailData& d) {
  std::string text;
  for (size_t i = 0; i < d.charts.size(); ++i) {
    if (d.points[i].size() != 1) continue;
    text += fmt::format("{}{} ({}) {:.4g}", text.empty() ? "values  " : " · ", d.charts[i].name,
                        d.charts[i].stream, d.points[i].front().value);
  }
  return text;
}

void render_charts(const DetailData& d, Canvas& c, Rect r) {
  if (d.charts.empty()) {
    c.draw_text(r.x, r.y, "no metrics yet (lines such as loss=0.31 appear here as charts)",
                Role::Dim, r.w);
    return;
  }
  if (auto values = single_values_text(d); !values.empty() && r.h > 0) {
    c.draw_text_truncated(r.x, r.y, sanitize_text(values), Role::Row, r.w);
    r = r.drop_top(1);
  }
  std::vector<size_t> charts;  // the series of more than one point, drawn as charts
  for (size_t i = 0; i < d.charts.size(); ++i)
    if (d.points[i].size() != 1) charts.push_back(i);
  if (charts.empty()) return;
  int per_row = r.w >= 100 ? 2 : 1;
  int n = static_cast<int>(charts.size());
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
    auto at = charts[static_cast<size_t>(i)];
    render_chart(d.charts[at], d.points[at], kSeriesRoles[i % 6], c, cell);
  }
}

}  // namespace

std::shared_ptr<const PaneData> read_detail(AppContext& ctx, const Frame& f) {
  auto d = std::make_shared<DetailData>();
  auto t = ctx.store->task(f.account, f.job, f.task);
  if (!t || !t->has_value()) return d;
  d->task = std::move(**t);
  const Task& task = *d->task;
  d->waiting = waiting_reason(ctx, task);
  if (auto h = ctx.store->state_history(task.account, task.job_id, task.id))
    d->timeline = timeline_events(*h, task.execution_info.result);
  if (task.multi_instance)
    if (auto subs = ctx.store->subtasks(task.account, task.job_id, task.id)) d->subtasks = *subs;
  auto series = ctx.store->metric_series(task.account, task.job_id, task.id);
  d->charts = metric_charts(series ? *series : std::vector<MetricSeries>{});
  for (const auto& key : d->charts) {
    auto pts = ctx.store->metric_points(task.account, task.job_id, task.id, key.name, key.stream);
    d->points.push_back(pts ? std::move(*pts) : std::vector<MetricPoint>{});
  }
  return d;
}

void render_detail(const TuiState& st, Canvas& c, Rect r) {
  const auto* d = shown_data<DetailData>(st);
  if (!d) return;  // the reader's answer is on its way
  if (!d->task) {
    c.draw_text(r.x, r.y, "task not found", Role::StatusError, r.w);
    return;
  }
  const Task& t = *d->task;
  auto rows = facts(t);
  add_instance_facts(t, rows);
  add_setup_facts(t, rows);
  if (!d->waiting.empty()) rows.insert(rows.begin() + 1, {"waiting", sanitize_text(d->waiting)});
  int y = r.y;
  for (const auto& [k, v] : rows) {
    if (y >= r.bottom()) return;
    c.draw_text(r.x, y, k, Role::Label, 12);
    c.draw_text_truncated(r.x + 12, y++, v, Role::Default, r.w - 12);
  }
  y += render_timeline(*d, c, Rect{r.x, y, r.w, std::min(2, r.bottom() - y)});
  // Instances take at most half of what is left, so the charts keep room.
  int instance_rows = std::max(4, (r.bottom() - y) / 2);
  y += render_subtasks(*d, c, Rect{r.x, y, r.w, std::min(instance_rows, r.bottom() - y)});
  render_charts(*d, c, Rect{r.x, y + 1, r.w, r.bottom() - y - 1});
}

}  // namespace trainyard
