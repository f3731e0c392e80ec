// What every table pane shares: the filter's match, the visible page and how it is drawn.
#include <algorithm>

#include "core/sanitizer.hpp"
#include "enum_forms.hpp"
#include "tui_state.hpp"

namespace trainyard {

void mark_sorted_column(TablePage& p, const TableCursor& cursor) {
  for (size_t i = 0; i < p.column_ids.size() && i < p.columns.size(); ++i) {
    if (cursor.sort.empty() || p.column_ids[i] != cursor.sort) continue;
    auto& col = p.columns[i];
    // A narrow fixed column gives up its title's last letters rather than the arrow.
    int room = col.width > 0 ? col.width - 1 : static_cast<int>(col.title.size());
    if (room >= 0 && static_cast<int>(col.title.size()) > room)
      col.title.resize(static_cast<size_t>(room));
    col.title += cursor.descending ? "\u25bc" : "\u25b2";
  }
}

std::string age_of(const std::optional<Timestamp>& t, Timestamp now) {
  if (!t) return "-";
  return format_age(now - *t);
}

Role task_role(const Task& t) {
  switch (t.state) {
    case TaskState::Active:
      return Role::StateActive;
    case TaskState::Preparing:
      return Role::StatePreparing;
    case TaskState::Running:
      return Role::StateRunning;
    case TaskState::Completed:
      return task_outcome(t) == TaskOutcome::Success ? Role::StateSuccess : Role::StateFailure;
  }
  return Role::Row;
}

void add_run_cells(TableRow& row, const SweepMetric& m, const SweepRow& r, bool best) {
  Role state = task_role(r.task);
  row.cells.push_back(enum_cell(task_state_text(r.task), state));
  const auto& code = r.task.execution_info.exit_code;
  row.cells.push_back({code ? std::to_string(*code) : "-", code && *code != 0 ? state : Role::Dim});
  for (const auto& v : r.params) row.cells.push_back({sanitize_text(v), std::nullopt});
  bool final_ranks = m.by == RankBy::Final;
  auto best_role = [&](bool ranked) {
    return best && ranked ? std::optional(Role::StateSuccess) : std::nullopt;
  };
  row.cells.push_back({sweep_value_text(r.final_value), best_role(final_ranks)});
  row.cells.push_back({sweep_value_text(r.best_value), best_role(!final_ranks)});
}

// Keeps the selection within the rows and on screen (the body height changes with the
// terminal size).
void load_page(AppContext& ctx, TuiState& st) {
  auto& c = st.top().cursor;
  auto& pane = focused_pane(st);
  int rows = std::max(1, st.table.body_height);
  st.table.page = pane.load(ctx, st, c.first, rows);
  if (st.table.page.total && c.selected >= st.table.page.total)
    c.selected = st.table.page.total - 1;
  auto first = scroll_to_show(c.selected, c.first, rows, st.table.page.total);
  if (first == c.first) return;
  c.first = first;
  st.table.page = pane.load(ctx, st, c.first, rows);
}

TableVm page_table_vm(const TuiState& st, const std::string& empty_text) {
  const auto& cursor = st.stack.back().cursor;
  TableVm vm;
  vm.columns = st.table.page.columns;
  vm.rows = st.table.page.rows;
  vm.first_row = cursor.first;
  vm.total_rows = st.table.page.total;
  if (st.table.page.total) vm.selected = cursor.selected;
  vm.empty_text = cursor.filter.empty() ? empty_text : "no rows match the filter";
  choose_columns(vm, st.table.page, st.table.columns, focused_pane(st).name());
  show_marks(vm, st.table.page.keys, st);
  return vm;
}

std::optional<std::string> selected_key(const TuiState& st) {
  const auto& c = st.stack.back().cursor;
  if (c.selected < c.first || c.selected - c.first >= st.table.page.keys.size())
    return std::nullopt;
  return st.table.page.keys[c.selected - c.first];
}

std::optional<std::string> Pane::selected_task(const TuiState& st) const {
  return st.stack.back().task;
}

std::optional<std::string> Pane::selected_job(const TuiState& st) const {
  return st.stack.back().job;
}

void Pane::refresh(AppContext& ctx, TuiState& st) {
  if (is_table()) load_page(ctx, st);
  show_pane_data(st, read_data(ctx, st));
}

void show_pane_data(TuiState& st, std::shared_ptr<const PaneData> data) {
  st.shown.data = std::move(data);
  st.shown.frame = frame_key(st.top());
}

TablePage Pane::load(AppContext&, TuiState&, size_t, int) {
  return {};
}

void Pane::render(AppContext&, TuiState& st, Canvas& c, Rect body) {
  render_table(page_table_vm(st, empty_pane_text(st, empty_text(st))), c, body);
}

}  // namespace trainyard
