// Clicks and the mouse wheel in the TUI.
#pragma once

#include "app/context.hpp"
#include "widgets/key.hpp"

namespace trainyard {

struct TuiState;

/// Handles a mouse event (KeyEvent::is_mouse): a wheel notch moves three rows or lines as `j`
/// and `k` do (the help scrolls too); a click on a table's row selects it, and a click on the
/// row already selected opens it as Enter does. While a prompt, form or dialog is open, mouse
/// events do nothing, so a stray click never answers a question.
void handle_mouse(AppContext& ctx, TuiState& st, const KeyEvent& key);

}  // namespace trainyard
