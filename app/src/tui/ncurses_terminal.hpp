// The real terminal, through ncursesw. This header does not include curses.
#pragma once

#include <memory>

#include "terminal.hpp"
#include "themes/theme.hpp"

namespace trainyard {

/// Starts curses on the controlling terminal with the theme downgraded to what it can show;
/// the terminal is restored when the object is destroyed. With `mouse`, clicks and the wheel
/// arrive as KeyEvents (the terminal's own text selection then needs Shift held).
std::unique_ptr<Terminal> make_ncurses_terminal(const Theme& theme, bool mouse);

/// The colour depth this terminal supports, from TERM, COLORTERM and NO_COLOR.
ColorDepth terminal_color_depth();

}  // namespace trainyard
