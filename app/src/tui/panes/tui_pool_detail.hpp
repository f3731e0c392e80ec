// Internal: what the Pool pane reads (on the reader's connection) and draws.
#pragma once

#include <memory>

#include "tui_state.hpp"

namespace trainyard {

/// The frame's pool, its nodes tallied, its samples and the account's quotas and usage.
std::shared_ptr<const PaneData> read_pool_detail(AppContext& ctx, const Frame& f);
/// Draws what read_pool_detail read for the focused frame (nothing before it arrives).
void render_pool_detail(AppContext& ctx, const TuiState& st, Canvas& c, Rect r);

}  // namespace trainyard
