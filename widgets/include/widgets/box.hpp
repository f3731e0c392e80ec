// Frames: boxes for dialogs and overlays, and pane frames with focus-dependent titles.
#pragma once

#include <string_view>

#include "widgets/canvas.hpp"

namespace trainyard {

/// Draws a single-line box on the edge of `r`, fills the inside with `fill`, and puts
/// ` title ` into the top edge. Returns the inside.
Rect draw_box(Canvas& canvas, Rect r, Role border, Role fill, std::string_view title = {},
              Role title_role = Role::Title);
/// Draws a pane frame: Border/BorderFocused edge, PaneTitleFocused/Unfocused title, and
/// `right_note` (e.g. "12/300") in the top edge's right end. Returns the inside.
Rect draw_pane(Canvas& canvas, Rect r, std::string_view title, bool focused,
               std::string_view right_note = {});

}  // namespace trainyard
