// Sorting a table pane: the cursor names the sorted column; the pane's load() orders its rows by
// it (in memory, or in SQL for the Tasks pane) and marks its title.
#include "tui_sort.hpp"

#include <algorithm>
#include <sstream>

#include <fmt/format.h>

#include "core/sanitizer.hpp"
#include "core/text.hpp"
#include "tui_state.hpp"

namespace trainyard {
namespace {

// The title of column `id` as the header shows it, without a sort arrow.
std::string title_of(const TablePage& p, const std::string& id) {
  for (size_t i = 0; i < p.column_ids.size() && i < p.columns.size(); ++i)
    if (p.column_ids[i] == id) {
      std::string t = p.columns[i].title;
      for (const char* arrow : {"\u25b2", "\u25bc"})
        if (auto at = t.find(arrow); at != std::string::npos) t.erase(at);
      return t;
    }
  return id;
}

void sort_by(TuiState& st, const std::string& id, bool descending) {
  auto& c = st.top().cursor;
  c.sort = id;
  c.descending = descending;
  c.selected = c.first = 0;
  if (id.empty()) return set_status(st, "sorted in the pane's own order");
  set_status(st, fmt::format("sorted by {} {}", id, descending ? "descending" : "ascending"));
}

// The sortable column `name` names (its id, or its title without a narrow column's cut).
std::string column_named(const TablePage& p, const std::string& name) {
  auto want = ascii_lowercase(name);
  for (const auto& id : p.sortable)
    if (ascii_lowercase(id) == want || ascii_lowercase(title_of(p, id)) == want) return id;
  return "";
}

std::string sortable_list(const TablePage& p) {
  std::string out;
  for (const auto& id : p.sortable) out += (out.empty() ? "" : ", ") + id;
  return out;
}

// The sortable columns on screen: `o` passing over one that wide mode or the column chooser
// hides would sort by what the user cannot see.
std::vector<std::string> shown_sortable(const TuiState& st) {
  const auto& p = st.table.page;
  std::vector<std::string> out;
  for (const auto& id : p.sortable) {
    auto at = std::find(p.column_ids.begin(), p.column_ids.end(), id);
    auto i = static_cast<size_t>(at - p.column_ids.begin());
    bool wide_only = i < p.wide_only.size() && p.wide_only[i];
    if (column_shown(st.table.columns, focused_pane(st).name(), id, wide_only)) out.push_back(id);
  }
  return out;
}

}  // namespace

void sort_by_next_column(TuiState& st) {
  const auto ids = shown_sortable(st);
  if (ids.empty()) return;
  auto it = std::find(ids.begin(), ids.end(), st.top().cursor.sort);
  if (it == ids.end()) return sort_by(st, ids.front(), false);
  ++it;
  sort_by(st, it == ids.end() ? std::string() : *it, false);
}

void flip_sort(TuiState& st) {
  const auto& c = st.top().cursor;
  if (!c.sort.empty()) return sort_by(st, c.sort, !c.descending);
  const auto ids = shown_sortable(st);
  if (!ids.empty()) sort_by(st, ids.front(), true);
}

void sort_command(TuiState& st, const std::string& args) {
  std::istringstream in(args);
  std::string name, direction, extra;
  in >> name >> direction >> extra;
  auto usage = [&](const std::string& why) {
    set_status(st,
               fmt::format("{}: :sort COLUMN [asc|desc], COLUMN one of {}", why,
                           sortable_list(st.table.page)),
               StatusLevel::Error);
  };
  if (name.empty()) return usage("which column?");
  auto id = column_named(st.table.page, name);
  if (id.empty()) return usage(fmt::format("no column '{}' here", sanitize_text(name)));
  direction = ascii_lowercase(direction);
  if (!extra.empty() || (direction != "" && direction != "asc" && direction != "desc"))
    return usage("the direction is asc or desc");
  sort_by(st, id, direction == "desc");
}

}  // namespace trainyard
