// Internal: a key's pane action routed by the binding it matched (tui_action_routes.cpp).
#pragma once

#include "keymap.hpp"

namespace trainyard {

struct AppContext;
struct TuiState;

/// Runs the pane handler of the binding `a` came from on the focused pane (pool, node, job or
/// task actions); on the local account a Batch-only binding says so instead. False when the
/// binding has no pane route (the caller's switch handles it).
bool route_pane_action(AppContext& ctx, TuiState& st, Action a);

}  // namespace trainyard
