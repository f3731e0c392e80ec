// Internal: the keys every table pane shares beyond moving and filtering: marks, the column
// chooser, wide mode and the JSON view.
#pragma once

#include "app/context.hpp"
#include "keymap.hpp"

namespace trainyard {

struct TuiState;

/// Space, `C`, `W` and `y` on a table pane; false when `a` is none of them.
bool table_key_action(AppContext& ctx, TuiState& st, Action a);
/// Wide mode on or off (every table pane), said in the status line.
void toggle_wide(TuiState& st);
/// Opens the column chooser on the focused table pane's columns.
void open_column_chooser(AppContext& ctx, TuiState& st);
/// Opens the JSON view of the selected row's entity.
void open_entity_json(AppContext& ctx, TuiState& st);

}  // namespace trainyard
