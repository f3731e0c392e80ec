// The sweep pane: one row per run of a job, a column per sweep parameter, the main metric's
// final and best values and a sparkline; sortable, with the marked runs' curves in one chart.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "core/sanitizer.hpp"
#include "core/text.hpp"
#include "sync/metric_parser.hpp"
#include "tui_batch.hpp"
#include "tui_state.hpp"
#include "widgets/charts.hpp"

namespace trainyard {
namespace {

std::optional<double> number(const std::string& s) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || std::isnan(v)) return std::nullopt;
  return v;
}

// The job's metrics, read once per load: the `m` key steps through them.
void read_metric_names(AppContext& ctx, SweepState& sw, const std::vector<Task>& tasks) {
  auto names = job_metric_names(*ctx.store, tasks);
  sw.metric_names = names.value_or(std::vector<std::string>{});
  sw.names_error = names ? "" : names.error().message;
}

// A finished run's parameters and metrics no longer change: its summary is kept across reloads,
// so a store change (a running task's new points) re-reads only the runs still going.
bool reusable(const SweepRow& old, const Task& now, bool same_metric) {
  return same_metric && old.task.state == TaskState::Completed && now.state == TaskState::Completed;
}

SweepRow make_row(AppContext& ctx, SweepState& sw, Task t,
                  std::unordered_map<std::string, SweepRow>& previous, bool same_metric) {
  auto old = previous.find(t.id);
  SweepRow row;
  if (old != previous.end() && reusable(old->second, t, same_metric)) {
    row = std::move(old->second);
    row.task = std::move(t);
    return row;
  }
  row.task = std::move(t);
  // Read again while the run goes on: its output may print parameters (output_parameters).
  place_parameters(sw.param_names, row, run_parameters(*ctx.store, row.task));
  summarize_run(*ctx.store, sw.metric, row);
  return row;
}

void load_rows(AppContext& ctx, TuiState& st) {
  auto& f = st.top();
  auto& sw = sweep_state(st);
  std::string key = f.account + "/" + f.job;
  if (!sw.stale && sw.job == key) return;
  if (sw.job != key) sw = SweepState{};
  sw.job = key;
  sw.stale = false;
  sw.curves.clear();
  TaskQuery q;
  q.account = f.account;
  q.job = f.job;
  auto tasks = ctx.store->tasks(q);
  if (!tasks) return set_status(st, tasks.error().message, StatusLevel::Error);
  std::unordered_map<std::string, SweepRow> previous;
  for (auto& r : sw.rows) previous.emplace(r.task.id, std::move(r));
  sw.rows.clear();
  // Once known, the metric stays: finding it may ask every queued run for its metrics.
  bool same_metric = !sw.metric.name.empty() && !sw.rerank;
  read_metric_names(ctx, sw, *tasks);
  if (sw.metric.name.empty())
    sw.metric = initial_sweep_metric(ctx.settings, f.job, sw.metric_names);
  sw.rerank = false;
  sw.rows.reserve(tasks->size());
  for (auto& t : *tasks) sw.rows.push_back(make_row(ctx, sw, std::move(t), previous, same_metric));
  for (auto& r : sw.rows) r.params.resize(sw.param_names.size());
  sw.best = best_run(sw.metric, sw.rows);
}

// Sortable columns: ID, STATE, EXIT, each parameter, FINAL, BEST. No column (-1) is the ranking
// itself (ranks_before), which the header's rule names.
size_t sortable_count(size_t params) {
  return params + 5;
}

// The ranking shows its arrow on the column it ranks by.
size_t arrow_index(const SweepState& sw) {
  size_t p = sw.param_names.size();
  if (sw.sort_column >= 0) return static_cast<size_t>(sw.sort_column);
  return sw.metric.by == RankBy::Final ? p + 3 : p + 4;
}

std::string sort_text(const SweepRow& r, size_t col) {
  if (col == 0) return r.task.id;
  if (col == 1) return std::string(task_state_text(r.task));
  if (col == 2) {
    const auto& code = r.task.execution_info.exit_code;
    return code ? std::to_string(*code) : "";
  }
  return r.params[col - 3];
}

int compare_text(const std::string& a, const std::string& b) {
  auto x = number(a), y = number(b);
  if (x && y) return *x < *y ? -1 : (*x > *y ? 1 : 0);
  return a < b ? -1 : (a > b ? 1 : 0);
}

// Values sort best first; runs without a value go last in either direction.
void sort_rows(SweepState& sw) {
  if (sw.sort_column < 0) {
    rank_rows(sw.metric, sw.rows);
    if (sw.reversed) std::reverse(sw.rows.begin(), sw.rows.end());
    return;
  }
  size_t col = static_cast<size_t>(sw.sort_column), p = sw.param_names.size();
  std::stable_sort(sw.rows.begin(), sw.rows.end(), [&](const SweepRow& a, const SweepRow& b) {
    int c = 0;
    if (col >= p + 3) {
      auto va = col == p + 3 ? a.final_value : a.best_value;
      auto vb = col == p + 3 ? b.final_value : b.best_value;
      if (va.has_value() != vb.has_value()) return va.has_value();
      if (va)
        c = better_value(sw.metric, *va, *vb) ? -1 : (better_value(sw.metric, *vb, *va) ? 1 : 0);
    } else {
      c = compare_text(sort_text(a, col), sort_text(b, col));
    }
    if (sw.reversed) c = -c;
    return c != 0 ? c < 0 : a.task.id < b.task.id;
  });
}

bool matches(const SweepRow& r, const std::string& filter) {
  if (filter.empty()) return true;
  std::string text = r.task.id + " " + r.task.display_name;
  for (const auto& v : r.params) text += " " + v;
  return ascii_lowercase(text).find(ascii_lowercase(filter)) != std::string::npos;
}

std::optional<size_t> mark_index(const SweepState& sw, const std::string& id) {
  auto it = std::find(sw.marked.begin(), sw.marked.end(), id);
  if (it == sw.marked.end()) return std::nullopt;
  return static_cast<size_t>(it - sw.marked.begin());
}

// The arrow says which way the values run down the column.
std::string sort_title(const SweepState& sw, size_t col, std::string title) {
  if (col != arrow_index(sw)) return title;
  bool ascending = !sw.reversed;
  if (col >= sw.param_names.size() + 3 && !sw.metric.lower_is_better) ascending = !ascending;
  return title + (ascending ? "▲" : "▼");
}

// The widest of the name (with room for the sort arrow) and the values, in cells.
int param_width(const SweepState& sw, size_t i) {
  int w = text_width(sanitize_text(sw.param_names[i])) + 1;
  for (const auto& r : sw.rows) w = std::max(w, text_width(sanitize_text(r.params[i])));
  return std::max(w, 3);
}

std::vector<Column> sweep_columns(const SweepState& sw) {
  std::vector<Column> cols{
      {.title = "", .width = 1},
      {.title = sort_title(sw, 0, "ID"), .min_width = 8, .flex = 2, .cut = Cut::Middle},
      {.title = sort_title(sw, 1, "STATE"), .width = 10, .short_width = 6},
      {.title = sort_title(sw, 2, "EXIT"), .width = 4, .align = Align::Right, .drop = 3}};
  // A parameter's column is as wide as its values: a cut value would hide the run's identity.
  for (size_t i = 0; i < sw.param_names.size(); ++i)
    cols.push_back({.title = sort_title(sw, i + 3, sanitize_text(sw.param_names[i])),
                    .width = param_width(sw, i),
                    .align = Align::Right,
                    .drop = 2});
  size_t p = sw.param_names.size();
  cols.push_back({.title = sort_title(sw, p + 3, "FINAL"), .width = 9, .align = Align::Right});
  cols.push_back(
      {.title = sort_title(sw, p + 4, "BEST"), .width = 9, .align = Align::Right, .drop = 4});
  cols.push_back({.title = "TREND", .width = 8, .drop = 5});
  return cols;
}

TableRow sweep_row(const SweepState& sw, const SweepRow& r) {
  bool best = sw.best == r.task.id;
  auto mark = mark_index(sw, r.task.id);
  TableRow row;
  row.cells.push_back(
      {mark ? "●" : "", mark ? std::optional(sweep_series_role(*mark)) : std::nullopt});
  row.cells.push_back(
      {(best ? "★ " : "  ") + sanitize_text(sweep_run_label(r.task)), std::nullopt});
  add_run_cells(row, sw.metric, r, best);
  row.cells.push_back({sweep_trend_text(r.tail), Role::Sparkline});
  return row;
}

void fill_page(TuiState& st) {
  auto& sw = sweep_state(st);
  auto& c = st.top().cursor;
  sw.shown.clear();
  for (size_t i = 0; i < sw.rows.size(); ++i)
    if (matches(sw.rows[i], c.filter)) sw.shown.push_back(i);
  st.table.page = TablePage{};
  st.table.page.columns = sweep_columns(sw);
  st.table.page.total = sw.shown.size();
  if (st.table.page.total && c.selected >= st.table.page.total)
    c.selected = st.table.page.total - 1;
  int rows = std::max(1, st.table.body_height);
  c.first = scroll_to_show(c.selected, c.first, rows, st.table.page.total);
  for (size_t i = c.first;
       i < sw.shown.size() && st.table.page.rows.size() < static_cast<size_t>(rows); ++i) {
    const auto& r = sw.rows[sw.shown[i]];
    st.table.page.rows.push_back(sweep_row(sw, r));
    st.table.page.keys.push_back(r.task.id);
  }
}

// The chart's part of the body: the lower half, or all of it when the body is small.
int chart_height(const TuiState& st, Rect body) {
  if (!sweep_state(st).chart) return 0;
  return body.h < 12 ? body.h : body.h / 2;
}

void toggle_mark(TuiState& st) {
  auto id = selected_key(st);
  if (!id) return;
  auto& m = sweep_state(st).marked;
  auto it = std::find(m.begin(), m.end(), *id);
  if (it != m.end())
    m.erase(it);
  else
    m.push_back(*id);
  set_status(st, fmt::format("{} marked run(s) · c charts them", m.size()));
}

// Every run is summarized again under the new metric or direction on the next read; the
// header says what ranks them now.
void rank_by(TuiState& st, SweepMetric m) {
  auto& sw = sweep_state(st);
  if (m.name.empty()) return set_status(st, "no metric yet to rank the runs by");
  sw.metric = std::move(m);
  sw.rerank = true;
  sw.stale = true;
  sw.curves.clear();
}

// The job's metric after the current one, in order of first appearance, with its usual direction.
void next_metric(TuiState& st) {
  const auto* v = shown_data<SweepView>(st);
  if (!v) return;
  if (!v->names_error.empty()) return set_status(st, v->names_error, StatusLevel::Error);
  const auto& names = v->metric_names;
  if (names.empty()) return set_status(st, "no metric yet to rank the runs by");
  auto it = std::find(names.begin(), names.end(), v->metric.name);
  auto next = it == names.end() || it + 1 == names.end() ? names.front() : *(it + 1);
  rank_by(st, {next, metric_lower_is_better(next), v->metric.by});
}

// The metric ranking the runs on screen (the UI's choice, else the job's main one).
SweepMetric shown_metric(const TuiState& st) {
  const auto* v = shown_data<SweepView>(st);
  return v ? v->metric : sweep_state(st).metric;
}

}  // namespace

void refresh_sweep(AppContext& ctx, TuiState& st) {
  load_rows(ctx, st);
  sort_rows(sweep_state(st));
  fill_page(st);
}

std::shared_ptr<const PaneData> sweep_choice(const TuiState& st) {
  const auto& sw = sweep_state(st);
  auto c = std::make_shared<SweepChoice>();
  c->metric = sw.metric;
  c->sort_column = sw.sort_column;
  c->reversed = sw.reversed;
  c->marked = sw.marked;
  c->chart = sw.chart;
  return c;
}

void accept_sweep_choice(TuiState& st, const SweepChoice& in) {
  auto& sw = sweep_state(st);
  std::string key = st.top().account + "/" + st.top().job;
  if (sw.job != key) {
    sw = SweepState{};
    sw.job = key;
  }
  if (!in.metric.name.empty() && in.metric != sw.metric) {
    sw.metric = in.metric;
    sw.rerank = true;
    sw.stale = true;
    sw.curves.clear();
  }
  sw.sort_column = in.sort_column;
  sw.reversed = in.reversed;
  sw.marked = in.marked;
  sw.chart = in.chart;
}

std::shared_ptr<const PaneData> read_sweep_view(AppContext& ctx, TuiState& st) {
  auto& sw = sweep_state(st);
  auto v = std::make_shared<SweepView>();
  v->header = sanitize_text(sweep_header(sw.metric, sw.rows, sw.best));
  v->metric = sw.metric;
  v->params = sw.param_names.size();
  v->metric_names = sw.metric_names;
  v->names_error = sw.names_error;
  if (sw.chart) v->chart = sweep_chart_vm(ctx, st);
  return v;
}

Rect sweep_table_rect(const TuiState& st, Rect body) {
  return body.drop_top(1).drop_bottom(chart_height(st, body.drop_top(1)));
}

void render_sweep(const TuiState& st, Canvas& c, Rect body) {
  const auto* v = shown_data<SweepView>(st);
  // Indented to line up with the run ids below it.
  if (v) c.draw_text(body.x + 1, body.y, v->header, Role::Title, body.w - 1);
  body = body.drop_top(1);
  Rect table = body.drop_bottom(chart_height(st, body));
  if (!table.empty()) {
    render_table(page_table_vm(st, "no runs in this job"), c, table);
  }
  if (!sweep_state(st).chart) return;
  Rect chart = body.bottom_rows(chart_height(st, body));
  if (!table.empty()) {
    std::string rule;
    for (int i = 0; i < chart.w; ++i) rule += "─";
    c.draw_text(chart.x, chart.y, rule, Role::Border, chart.w);
    chart = chart.drop_top(1);
  }
  if (v && v->chart) render_sweep_chart(*v->chart, c, chart);
}

void open_sweep(AppContext& ctx, TuiState& st, std::optional<std::string> job) {
  Frame next = st.top();
  if (job)
    next.job = *job;
  else if (next.view == View::Jobs)
    next.job = selected_key(st).value_or("");
  if (next.job.empty()) return set_status(st, "sweep: select a job first", StatusLevel::Error);
  if (next.view == View::Sweep) return;
  next.view = View::Sweep;
  next.task.clear();
  next.cursor = {};
  st.stack.push_back(next);
  // Another job's sweep starts with none of this one's choices.
  auto& sw = sweep_state(st);
  std::string key = next.account + "/" + next.job;
  if (sw.job != key) {
    sw = SweepState{};
    sw.job = key;
  }
  sw.stale = true;
  // Ranked by final values: each run's last lines, read for the tasks whose logs are not whole.
  fetch_job_logs(ctx, st, "sweep");
}

bool sweep_action(TuiState& st, Action a) {
  auto& sw = sweep_state(st);
  const auto* v = shown_data<SweepView>(st);
  size_t columns = sortable_count(v ? v->params : sw.param_names.size());
  switch (a) {
    case Action::SortNext:
      // Through every column, then back to the ranking.
      sw.sort_column = sw.sort_column + 1 < static_cast<int>(columns) ? sw.sort_column + 1 : -1;
      sw.reversed = false;
      return true;
    case Action::SortFlip:
      sw.reversed = !sw.reversed;
      return true;
    case Action::Mark:
      toggle_mark(st);
      return true;
    case Action::NextMetric:
      next_metric(st);
      return true;
    case Action::FlipDirection: {
      auto m = shown_metric(st);
      m.lower_is_better = !m.lower_is_better;
      rank_by(st, m);
      return true;
    }
    case Action::RankByFlip: {
      auto m = shown_metric(st);
      m.by = m.by == RankBy::Final ? RankBy::Best : RankBy::Final;
      rank_by(st, m);
      return true;
    }
    case Action::Chart:
      sw.chart = !sw.chart;
      return true;
    case Action::Back:
      if (!sw.chart) return false;
      sw.chart = false;
      return true;
    default:
      return false;
  }
}

}  // namespace trainyard
