// Comparing runs in the TUI: `v` marks a run of any job and account, the Compare pane shows
// them; its data is read by the reader, and its keys change only the set and the metric.
#include "tui_compare.hpp"

#include <fmt/format.h>

#include "core/sanitizer.hpp"
#include "tui_batch.hpp"

namespace trainyard {
namespace {

size_t shown_rows(const TuiState& st) {
  const auto* d = shown_data<CompareData>(st);
  return d ? d->table.rows.size() : 0;
}

void move_selection(const TuiState& st, size_t& selected, int delta) {
  size_t n = shown_rows(st);
  if (n == 0) return;
  if (delta < 0 && selected > 0) --selected;
  if (delta > 0 && selected + 1 < n) ++selected;
}

void remove_selected(TuiState& st, size_t& selected) {
  auto run = selected_compare_run(st, selected);
  if (!run) return;
  toggle_compare(st.compare, *run);
  set_status(st, fmt::format("{}/{} no longer compared ({} left)", sanitize_text(run->job),
                             sanitize_text(run->task), st.compare.runs.size()));
  if (selected > 0 && selected >= st.compare.runs.size()) --selected;
}

void compare_by_next_metric(TuiState& st) {
  const auto* d = shown_data<CompareData>(st);
  if (!d) return;
  auto m = next_compare_metric(d->table.metric_names, d->table.metric.name);
  if (m.name.empty()) return set_status(st, "no metric yet to compare the runs by");
  m.by = d->table.metric.by;
  st.compare.metric = m;
}

void flip_direction(TuiState& st) {
  const auto* d = shown_data<CompareData>(st);
  if (!d || d->table.metric.name.empty()) return;
  SweepMetric m = d->table.metric;
  m.lower_is_better = !m.lower_is_better;
  st.compare.metric = m;
}

void flip_rank_by(TuiState& st) {
  const auto* d = shown_data<CompareData>(st);
  if (!d || d->table.metric.name.empty()) return;
  SweepMetric m = d->table.metric;
  m.by = m.by == RankBy::Final ? RankBy::Best : RankBy::Final;
  st.compare.metric = m;
}

}  // namespace

void toggle_compare_run(TuiState& st) {
  Frame f = st.top();
  if (!focused_pane(st).select_for_detail(st, f) || f.task.empty())
    return set_status(st, "compare: select a run first", StatusLevel::Error);
  RunRef run{f.account, f.job, f.task};
  bool added = toggle_compare(st.compare, run);
  auto name = sanitize_text(run.job + "/" + run.task);
  auto n = st.compare.runs.size();
  if (added)
    set_status(st,
               fmt::format("{} added to the comparison ({} run(s)) · V compares them", name, n));
  else
    set_status(st, fmt::format("{} no longer compared ({} left)", name, n));
}

void open_compare(AppContext& ctx, TuiState& st) {
  if (st.top().view == View::Compare) return;
  Frame next = st.top();
  next.view = View::Compare;
  next.cursor = {};
  st.stack.push_back(std::move(next));
  std::vector<RunRef> runs;
  for (const auto& r : st.compare.runs)
    if (r.account == st.top().account) runs.push_back(r);
  fetch_run_logs(ctx, st, runs, "compare");
}

std::shared_ptr<const PaneData> read_compare(AppContext& ctx, const CompareSet& set) {
  auto d = std::make_shared<CompareData>();
  d->table = read_compare_table(*ctx.store, ctx.settings, set);
  return d;
}

std::optional<RunRef> selected_compare_run(const TuiState& st, size_t selected) {
  const auto* d = shown_data<CompareData>(st);
  if (!d || selected >= d->table.rows.size()) return std::nullopt;
  return d->table.rows[selected].ref;
}

bool compare_action(TuiState& st, Action a, size_t& selected) {
  switch (a) {
    case Action::Down:
      move_selection(st, selected, 1);
      return true;
    case Action::Up:
      move_selection(st, selected, -1);
      return true;
    case Action::Compare:
      remove_selected(st, selected);
      return true;
    case Action::NextMetric:
      compare_by_next_metric(st);
      return true;
    case Action::FlipDirection:
      flip_direction(st);
      return true;
    case Action::RankByFlip:
      flip_rank_by(st);
      return true;
    default:
      return false;
  }
}

}  // namespace trainyard
