// Internal: sorting a table pane by one of its columns (`o`, `O`, `:sort COLUMN [asc|desc]`).
#pragma once

#include <string>

namespace trainyard {

struct TuiState;

/// `o`: sorts by the column after the sorted one (after the last: the pane's own order).
void sort_by_next_column(TuiState& st);
/// `O`: reverses the sort (unsorted: sorts by the first column, largest first).
void flip_sort(TuiState& st);
/// `:sort COLUMN [asc|desc]`: the column by its id or title, any case; a bad one is a one-line
/// error that lists the pane's sortable columns.
void sort_command(TuiState& st, const std::string& args);

}  // namespace trainyard
