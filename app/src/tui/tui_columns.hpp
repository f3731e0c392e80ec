// Internal: which columns a table pane shows for the session: wide mode's extra columns, and
// the columns the user hid with the column chooser.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>

#include "core/time.hpp"
#include "tui_pane.hpp"

namespace trainyard {

/// The session's column choices, shared by every table pane.
struct ColumnChoice {
  bool wide = false;  ///< wide mode: columns marked wide_only are shown too
  /// Column ids the user hid, by pane name (`tasks`).
  std::map<std::string, std::set<std::string>> hidden;
};

/// True when column `id` of `pane` is shown under `choice`.
bool column_shown(const ColumnChoice& choice, const std::string& pane, const std::string& id,
                  bool wide_only);
/// Cuts `vm`'s columns (and each row's cells) to those `choice` shows of `page`'s; a page
/// without column ids keeps every column.
void choose_columns(TableVm& vm, const TablePage& page, const ColumnChoice& choice,
                    const std::string& pane);
/// `2024-03-01 14:00:05`: a time in a wide column (UTC); `-` when unknown.
std::string wide_time(const std::optional<Timestamp>& t);

}  // namespace trainyard
