// Wide mode and the column chooser's choices, applied to a table page as it is drawn (the
// reader loads every column the account shows; what the user hid costs no second read).
#include "tui_columns.hpp"

namespace trainyard {

bool column_shown(const ColumnChoice& choice, const std::string& pane, const std::string& id,
                  bool wide_only) {
  if (wide_only && !choice.wide) return false;
  auto it = choice.hidden.find(pane);
  return it == choice.hidden.end() || it->second.count(id) == 0;
}

void choose_columns(TableVm& vm, const TablePage& page, const ColumnChoice& choice,
                    const std::string& pane) {
  if (page.column_ids.size() != vm.columns.size()) return;
  std::vector<size_t> kept;
  for (size_t i = 0; i < vm.columns.size(); ++i)
    if (column_shown(choice, pane, page.column_ids[i], page.wide_only[i])) kept.push_back(i);
  if (kept.size() == vm.columns.size()) return;
  std::vector<Column> columns;
  for (size_t i : kept) columns.push_back(vm.columns[i]);
  vm.columns = std::move(columns);
  for (auto& row : vm.rows) {
    std::vector<TableCell> cells;
    for (size_t i : kept)
      if (i < row.cells.size()) cells.push_back(std::move(row.cells[i]));
    row.cells = std::move(cells);
  }
}

std::string wide_time(const std::optional<Timestamp>& t) {
  if (!t) return "-";
  // Batch's spelling less the fraction and the zone: `2024-03-01T14:00:05.0000000Z`.
  std::string text = format_iso8601(*t).substr(0, 19);
  if (text.size() > 10) text[10] = ' ';
  return text;
}

}  // namespace trainyard
