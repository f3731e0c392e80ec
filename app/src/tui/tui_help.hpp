// Internal: the help overlay and the hint bar, generated from the bindings in use (config.json's
// `keys` applied) and the plugins; the help scrolls.
#pragma once

#include "app/context.hpp"
#include "widgets/bars.hpp"
#include "widgets/help_overlay.hpp"
#include "widgets/key.hpp"

namespace trainyard {

struct TuiState;
class Pane;

/// Every binding by context, each with its key, action name and description, then the plugins;
/// scrolled to `st.modal.help.top`.
HelpVm help_of(const AppContext& ctx, const TuiState& st);

/// The hint bar of `pane` from the bindings in use.
HintBarVm hints_of(const TuiState& st, const Pane& pane);

/// A key while the help is open: j/k, arrows, pages, g/G scroll it; any other key closes it.
void handle_help_key(const AppContext& ctx, TuiState& st, const KeyEvent& key);

}  // namespace trainyard
