// The Compare pane's drawing: the runs' parameters and final/best values side by side, then
// their curves overlaid in one chart whose legend names each run in its table colour.
#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "core/sanitizer.hpp"
#include "tui_compare.hpp"
#include "widgets/charts.hpp"

namespace trainyard {
namespace {

std::vector<RunRef> refs_of(const CompareTable& t) {
  std::vector<RunRef> out;
  for (const auto& r : t.rows) out.push_back(r.ref);
  return out;
}

int param_width(const CompareTable& t, size_t i) {
  size_t w = sanitize_text(t.param_names[i]).size() + 1;
  for (const auto& r : t.rows)
    if (r.run) w = std::max(w, sanitize_text(r.run->params[i]).size());
  return static_cast<int>(std::clamp<size_t>(w, 3, 14));
}

std::vector<Column> compare_columns(const CompareTable& t) {
  std::vector<Column> cols{{"", 1},
                           {"RUN", 0, 8, 2},
                           {"STATE", 10, 1, 0, Align::Left, 6},
                           {"EXIT", 4, 1, 0, Align::Right}};
  for (size_t i = 0; i < t.param_names.size(); ++i)
    cols.push_back({sanitize_text(t.param_names[i]), param_width(t, i), 1, 0, Align::Right});
  cols.push_back({"FINAL", 9, 1, 0, Align::Right});
  cols.push_back({"BEST", 9, 1, 0, Align::Right});
  cols.push_back({"POINTS", 6, 1, 0, Align::Right});
  return cols;
}

// The best run of the set (★ in the table), by the one ranking (ranks_before).
std::optional<size_t> best_index(const CompareTable& t) {
  std::optional<size_t> best;
  for (size_t i = 0; i < t.rows.size(); ++i) {
    const auto& r = t.rows[i].run;
    if (!r || !may_be_best(t.metric, *r)) continue;
    if (!best || ranks_before(t.metric, *r, *t.rows[*best].run)) best = i;
  }
  return best;
}

TableRow compare_row(const CompareTable& t, size_t i, bool best) {
  const auto& row = t.rows[i];
  auto label = sanitize_text(compare_label(refs_of(t), row.ref));
  TableRow out;
  out.cells.push_back({"●", sweep_series_role(i)});
  out.cells.push_back({(best ? "★ " : "  ") + label, std::nullopt});
  if (!row.run) {
    out.cells.push_back({"missing", Role::Dim});
    return out;
  }
  add_run_cells(out, t.metric, *row.run, best);
  out.cells.push_back({std::to_string(row.curve.size()), Role::Dim});
  return out;
}

void render_rows(const CompareTable& t, size_t selected, Canvas& c, Rect r) {
  TableVm vm;
  vm.columns = compare_columns(t);
  auto best = best_index(t);
  for (size_t i = 0; i < t.rows.size(); ++i) vm.rows.push_back(compare_row(t, i, best == i));
  vm.total_rows = vm.rows.size();
  vm.selected = std::min(selected, vm.total_rows - 1);
  vm.first_row = scroll_to_show(*vm.selected, 0, table_body_height(r), vm.total_rows);
  vm.rows.erase(vm.rows.begin(), vm.rows.begin() + static_cast<std::ptrdiff_t>(
                                                       std::min(vm.first_row, vm.total_rows)));
  render_table(vm, c, r);
}

void render_curves(const CompareTable& t, Canvas& c, Rect r) {
  if (t.metric.name.empty()) {
    c.draw_text(r.x, r.y, "no metric points yet to chart", Role::Dim, r.w);
    return;
  }
  LineChartVm vm;
  vm.title = sanitize_text(t.metric.name);
  size_t longest = 0;
  for (const auto& row : t.rows) longest = std::max(longest, row.curve.size());
  for (size_t i = 0; i < t.rows.size(); ++i) {
    // Point i of every run at the same x: a shorter run ends early rather than being stretched
    // (NaN draws nothing).
    auto values = t.rows[i].curve;
    values.resize(longest, std::numeric_limits<double>::quiet_NaN());
    vm.series.push_back(Series{sanitize_text(compare_label(refs_of(t), t.rows[i].ref)),
                               std::move(values), sweep_series_role(i)});
  }
  vm.x_left = std::string(1, '0');
  vm.x_right = fmt::format("{} points", longest);
  render_line_chart(vm, c, r);
}

// The table takes its rows (at most half the body), the chart the rest below a rule.
void render_table_and_chart(const CompareTable& t, size_t selected, Canvas& c, Rect body) {
  int table_h = std::min(static_cast<int>(t.rows.size()) + 1, std::max(2, body.h / 2));
  Rect table = body.top(table_h);
  render_rows(t, selected, c, table);
  Rect chart = body.drop_top(table_h);
  if (chart.h < 4) return;
  std::string rule;
  for (int i = 0; i < chart.w; ++i) rule += "─";
  c.draw_text(chart.x, chart.y, rule, Role::Border, chart.w);
  render_curves(t, c, chart.drop_top(1));
}

}  // namespace

void render_compare(const TuiState& st, size_t selected, Canvas& c, Rect body) {
  const auto* d = shown_data<CompareData>(st);
  if (!d) return;  // the reader's answer is on its way
  const auto& t = d->table;
  if (t.rows.empty()) {
    c.draw_text_truncated(body.x + 1, body.y,
                          "no runs to compare: v on a run in Tasks or Sweep adds it (any job, "
                          "any account)",
                          Role::Dim, body.w - 1);
    return;
  }
  auto title = t.metric.name.empty() ? std::string("no metric yet")
                                     : sanitize_text(sweep_metric_title(t.metric));
  c.draw_text(body.x + 1, body.y, fmt::format("{} · {} run(s)", title, t.rows.size()), Role::Title,
              body.w - 1);
  render_table_and_chart(t, selected, c, body.drop_top(1));
}

}  // namespace trainyard
