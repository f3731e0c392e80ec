// The sweep pane: one row per run of a job, a column per sweep parameter, the main metric's
// final and best values and a sparkline; sortable, with the marked runs' curves in one chart.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "core/sanitizer.hpp"
#include "sync/metric_parser.hpp"
#include "tui_state.hpp"
#include "widgets/charts.hpp"

namespace trainyard {
namespace {

constexpr size_t kTail = 8;  // sparkline points

std::string lower(std::string s) {
  for (auto& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

// Losses and error rates go down; everything else (accuracy, reward) goes up.
bool loss_like(const std::string& name) {
  auto n = lower(name);
  return n.find("loss") != std::string::npos || n.find("err") != std::string::npos;
}

// Shipyard names sweep parameters `0`, `1`, …: shown as `p0`, `p1`.
std::string param_title(const std::string& name) {
  bool numeric = !name.empty() && std::all_of(name.begin(), name.end(), [](char ch) {
    return std::isdigit(static_cast<unsigned char>(ch));
  });
  return numeric ? "p" + name : name;
}

std::optional<double> number(const std::string& s) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || std::isnan(v)) return std::nullopt;
  return v;
}

std::string main_metric_of(AppContext& ctx, const std::string& account, const std::string& job,
                           const std::vector<Task>& tasks) {
  auto configured = ctx.settings.main_metric.find(job);
  if (configured != ctx.settings.main_metric.end()) return configured->second;
  for (const auto& t : tasks) {
    auto names = ctx.store->metric_names(account, job, t.id);
    if (names && !names->empty()) return main_metric(*names);
  }
  return "";
}

void add_params(SweepState& sw, SweepRow& row, const std::vector<NameValue>& params) {
  for (const auto& p : params) {
    auto it = std::find(sw.param_names.begin(), sw.param_names.end(), p.name);
    auto i = static_cast<size_t>(it - sw.param_names.begin());
    if (it == sw.param_names.end()) sw.param_names.push_back(p.name);
    if (row.params.size() <= i) row.params.resize(i + 1);
    row.params[i] = sanitize_text(p.value);
  }
}

// One pass over the main metric's points: the last value, the best value and the tail.
void summarize(AppContext& ctx, const SweepState& sw, SweepRow& row, const Task& t) {
  row.final_value = row.best_value = std::nullopt;
  row.tail.clear();
  if (sw.metric.empty()) return;
  auto pts = ctx.store->metric_points(t.account, t.job_id, t.id, sw.metric);
  if (!pts || pts->empty()) return;
  std::optional<double> best;
  for (const auto& p : *pts) {
    if (std::isnan(p.value)) continue;
    if (!best || (sw.lower_is_better ? p.value < *best : p.value > *best)) best = p.value;
  }
  row.final_value = pts->back().value;
  row.best_value = best;
  for (size_t i = pts->size() > kTail ? pts->size() - kTail : 0; i < pts->size(); ++i)
    row.tail.push_back((*pts)[i].value);
}

bool better(const SweepState& sw, double a, double b) {
  return sw.lower_is_better ? a < b : a > b;
}

void find_best(SweepState& sw) {
  sw.best.reset();
  const SweepRow* best = nullptr;
  for (const auto& r : sw.rows)
    if (r.best_value && (!best || better(sw, *r.best_value, *best->best_value))) best = &r;
  if (best) sw.best = best->task.id;
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
  } else if (old != previous.end()) {
    row.params = std::move(old->second.params);  // parameters are fixed when a task is made
    summarize(ctx, sw, row, t);
  } else {
    if (auto params = ctx.store->task_parameters(t.account, t.job_id, t.id))
      add_params(sw, row, *params);
    summarize(ctx, sw, row, t);
  }
  row.task = std::move(t);
  return row;
}

void load_rows(AppContext& ctx, TuiState& st) {
  auto& f = st.top();
  auto& sw = st.sweep;
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
  // Once known, the main metric stays: finding it may ask every queued run for its metrics.
  auto metric = sw.metric.empty() ? main_metric_of(ctx, f.account, f.job, *tasks) : sw.metric;
  bool same_metric = metric == sw.metric;
  sw.metric = metric;
  sw.lower_is_better = loss_like(sw.metric);
  sw.rows.reserve(tasks->size());
  for (auto& t : *tasks) sw.rows.push_back(make_row(ctx, sw, std::move(t), previous, same_metric));
  for (auto& r : sw.rows) r.params.resize(sw.param_names.size());
  find_best(sw);
}

// Sortable columns: ID, STATE, each parameter, FINAL, BEST.
size_t sortable_count(const SweepState& sw) {
  return sw.param_names.size() + 4;
}

size_t sort_index(const SweepState& sw) {
  return sw.sort_column < 0 ? sortable_count(sw) - 1 : static_cast<size_t>(sw.sort_column);
}

std::string sort_text(const SweepRow& r, size_t col) {
  if (col == 0) return r.task.id;
  if (col == 1) return std::string(to_wire(r.task.state));
  return r.params[col - 2];
}

int compare_text(const std::string& a, const std::string& b) {
  auto x = number(a), y = number(b);
  if (x && y) return *x < *y ? -1 : (*x > *y ? 1 : 0);
  return a < b ? -1 : (a > b ? 1 : 0);
}

// Values sort best first; runs without a value go last in either direction.
void sort_rows(SweepState& sw) {
  size_t col = sort_index(sw), p = sw.param_names.size();
  std::stable_sort(sw.rows.begin(), sw.rows.end(), [&](const SweepRow& a, const SweepRow& b) {
    int c = 0;
    if (col >= p + 2) {
      auto va = col == p + 2 ? a.final_value : a.best_value;
      auto vb = col == p + 2 ? b.final_value : b.best_value;
      if (va.has_value() != vb.has_value()) return va.has_value();
      if (va) c = better(sw, *va, *vb) ? -1 : (better(sw, *vb, *va) ? 1 : 0);
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
  return lower(text).find(lower(filter)) != std::string::npos;
}

std::optional<size_t> mark_index(const SweepState& sw, const std::string& id) {
  auto it = std::find(sw.marked.begin(), sw.marked.end(), id);
  if (it == sw.marked.end()) return std::nullopt;
  return static_cast<size_t>(it - sw.marked.begin());
}

// The arrow says which way the values run down the column.
std::string sort_title(const SweepState& sw, size_t col, std::string title) {
  if (col != sort_index(sw)) return title;
  bool ascending = !sw.reversed;
  if (col >= sw.param_names.size() + 2 && !sw.lower_is_better) ascending = !ascending;
  return title + (ascending ? "▲" : "▼");
}

int param_width(const SweepState& sw, size_t i) {
  size_t w = param_title(sw.param_names[i]).size() + 1;
  for (const auto& r : sw.rows) w = std::max(w, r.params[i].size());
  return static_cast<int>(std::clamp<size_t>(w, 3, 14));
}

std::vector<Column> sweep_columns(const SweepState& sw) {
  std::vector<Column> cols{
      {"", 1}, {sort_title(sw, 0, "ID"), 0, 8, 2}, {sort_title(sw, 1, "STATE"), 10}};
  for (size_t i = 0; i < sw.param_names.size(); ++i)
    cols.push_back({sort_title(sw, i + 2, param_title(sw.param_names[i])), param_width(sw, i), 1, 0,
                    Align::Right});
  size_t p = sw.param_names.size();
  cols.push_back({sort_title(sw, p + 2, "FINAL"), 9, 1, 0, Align::Right});
  cols.push_back({sort_title(sw, p + 3, "BEST"), 9, 1, 0, Align::Right});
  cols.push_back({"TREND", 8});
  return cols;
}

std::string value_text(const std::optional<double>& v) {
  return v ? fmt::format("{:.4g}", *v) : "-";
}

std::string sparkline_text(const std::vector<double>& values) {
  if (values.empty()) return "";
  Canvas c(static_cast<int>(kTail), 1);
  SparklineVm vm;
  vm.values = values;
  render_sparkline(vm, c, c.bounds());
  return c.to_text();
}

TableRow sweep_row(const SweepState& sw, const SweepRow& r) {
  bool best = sw.best == r.task.id;
  auto mark = mark_index(sw, r.task.id);
  Role state = task_role(r.task);
  TableRow row;
  row.cells.push_back(
      {mark ? "●" : "", mark ? std::optional(sweep_series_role(*mark)) : std::nullopt});
  row.cells.push_back({(best ? "★ " : "  ") + sanitize_text(r.task.id), std::nullopt});
  row.cells.push_back({std::string(to_wire(r.task.state)), state});
  for (const auto& v : r.params) row.cells.push_back({v, std::nullopt});
  row.cells.push_back({value_text(r.final_value), std::nullopt});
  row.cells.push_back(
      {value_text(r.best_value), best ? std::optional(Role::StateSuccess) : std::nullopt});
  row.cells.push_back({sparkline_text(r.tail), Role::Sparkline});
  return row;
}

void fill_page(TuiState& st) {
  auto& sw = st.sweep;
  auto& c = st.top().cursor;
  sw.shown.clear();
  for (size_t i = 0; i < sw.rows.size(); ++i)
    if (matches(sw.rows[i], c.filter)) sw.shown.push_back(i);
  st.page = TablePage{};
  st.page.columns = sweep_columns(sw);
  st.page.total = sw.shown.size();
  if (st.page.total && c.selected >= st.page.total) c.selected = st.page.total - 1;
  int rows = std::max(1, st.body_height);
  c.first = scroll_to_show(c.selected, c.first, rows, st.page.total);
  for (size_t i = c.first; i < sw.shown.size() && st.page.rows.size() < static_cast<size_t>(rows);
       ++i) {
    const auto& r = sw.rows[sw.shown[i]];
    st.page.rows.push_back(sweep_row(sw, r));
    st.page.keys.push_back(r.task.id);
  }
}

// The chart's part of the body: the lower half, or all of it when the body is small.
int chart_height(const TuiState& st, Rect body) {
  if (!st.sweep.chart) return 0;
  return body.h < 12 ? body.h : body.h / 2;
}

std::optional<std::string> selected_run(const TuiState& st) {
  const auto& c = st.stack.back().cursor;
  if (c.selected < c.first || c.selected - c.first >= st.page.keys.size()) return std::nullopt;
  return st.page.keys[c.selected - c.first];
}

void toggle_mark(TuiState& st) {
  auto id = selected_run(st);
  if (!id) return;
  auto& m = st.sweep.marked;
  auto it = std::find(m.begin(), m.end(), *id);
  if (it != m.end())
    m.erase(it);
  else
    m.push_back(*id);
  set_status(st, fmt::format("{} marked run(s) · c charts them", m.size()));
}

}  // namespace

void refresh_sweep(AppContext& ctx, TuiState& st) {
  load_rows(ctx, st);
  sort_rows(st.sweep);
  fill_page(st);
}

Rect sweep_table_rect(const TuiState& st, Rect body) {
  return body.drop_bottom(chart_height(st, body));
}

void render_sweep(AppContext& ctx, TuiState& st, Canvas& c, Rect body) {
  Rect table = sweep_table_rect(st, body);
  if (!table.empty()) {
    render_table(page_table_vm(st, "no runs in this job"), c, table);
  }
  if (!st.sweep.chart) return;
  Rect chart = body.bottom_rows(chart_height(st, body));
  if (!table.empty()) {
    std::string rule;
    for (int i = 0; i < chart.w; ++i) rule += "─";
    c.draw_text(chart.x, chart.y, rule, Role::Border, chart.w);
    chart = chart.drop_top(1);
  }
  render_sweep_chart(ctx, st, c, chart);
}

void open_sweep(AppContext& ctx, TuiState& st, std::optional<std::string> job) {
  (void)ctx;
  Frame next = st.top();
  if (job)
    next.job = *job;
  else if (next.view == View::Jobs)
    next.job = selected_run(st).value_or("");
  if (next.job.empty()) return set_status(st, "sweep: select a job first", StatusLevel::Error);
  if (next.view == View::Sweep) return;
  next.view = View::Sweep;
  next.task.clear();
  next.cursor = {};
  st.stack.push_back(next);
  st.sweep.stale = true;
}

bool sweep_action(AppContext& ctx, TuiState& st, Action a) {
  (void)ctx;
  auto& sw = st.sweep;
  switch (a) {
    case Action::SortNext:
      sw.sort_column = static_cast<int>((sort_index(sw) + 1) % sortable_count(sw));
      sw.reversed = false;
      return true;
    case Action::SortFlip:
      sw.reversed = !sw.reversed;
      return true;
    case Action::Mark:
      toggle_mark(st);
      return true;
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
