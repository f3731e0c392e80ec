// Internal: rows marked with Space in a table pane, and actions on all of them at once.
#pragma once

#include <string>
#include <vector>

#include "app/context.hpp"
#include "keymap.hpp"
#include "widgets/bars.hpp"
#include "widgets/table.hpp"

namespace trainyard {

struct TuiState;

/// The rows marked in one frame; they belong to the frame they were made in, so moving to
/// another pane (or another job's tasks) leaves them behind.
struct RowMarks {
  std::string frame;              ///< frame_key() of the frame they were made in
  std::vector<std::string> keys;  ///< marked row ids, in marking order
};

/// The focused frame's marked row ids (none once the user moved to another frame).
std::vector<std::string> marked_rows(const TuiState& st);
/// Marks the selected row, or unmarks it, in a pane where some action takes marked rows (else
/// says so); the status line counts them.
void toggle_row_mark(TuiState& st);
/// Forgets every mark.
void clear_marks(TuiState& st);
/// Forgets the marks once the frame they were made in has left the stack (they do not come
/// back with it); a sub-pane opened over it keeps them.
void forget_marks_elsewhere(TuiState& st);
/// `3 marked`, or empty: what the status line says of the focused frame's marks.
std::string marks_note(const TuiState& st);
/// Adds marks_note() to the status line's right-side note.
void add_marks_note(const TuiState& st, StatusBarVm& vm);
/// Draws the marked rows among `vm`'s (a mark in a one-cell column before the others, added
/// while any row is marked); `keys` are the rows' ids.
void show_marks(TableVm& vm, const std::vector<std::string>& keys, const TuiState& st);
/// With rows marked, asks once for `a` on all of them (`Stop 3 runs?`) and runs them together
/// on the worker; true when `a` was taken so (asked, or refused with the reason). False: no
/// marks, or `a` acts on one row, so it acts on the selected row as usual.
bool apply_to_marked(AppContext& ctx, TuiState& st, Action a);

}  // namespace trainyard
