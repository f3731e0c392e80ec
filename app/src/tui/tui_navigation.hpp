// Internal: moving about beyond the crumbs: history back and forward (`[` `]`). The jumps
// (`:job J`) are with the panes' routes (panes/tui_pane_routes.hpp).
#pragma once

#include "app/context.hpp"
#include "keymap.hpp"

namespace trainyard {

struct TuiState;

/// `[` and `]`: shows the stack shown before (after) and says so when there is none; false when
/// `a` is not a history action.
bool move_in_history(AppContext& ctx, TuiState& st, Action a);

}  // namespace trainyard
