// Internal: where a text view (a log, the JSON view, a plugin's output) is scrolled to. With
// wrap on it scrolls by rows, so a line longer than the screen is read through and the lines
// after it are reached; with wrap off it also scrolls sideways (h l 0 $).
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "keymap.hpp"
#include "widgets/log_view.hpp"

namespace trainyard {

/// The lines a text view shows: how many there are, and a window of them.
struct TextLines {
  std::size_t count = 0;
  std::function<std::vector<LogLine>(std::size_t first, std::size_t n)> read;
};

/// The scroll position of a text view and the size it was last drawn at.
struct TextScroll {
  std::size_t top = 0;      ///< first line shown
  std::size_t top_row = 0;  ///< rows of `top` scrolled past (wrap only)
  int x = 0;                ///< cells scrolled right (no wrap)
  bool wrap = false;
  int height = 10;  ///< rows of text shown
  int width = 80;   ///< cells of text shown
};

/// Moves `rows` rows down (up when negative), never past the position that shows the end.
void scroll_rows(TextScroll& s, const TextLines& lines, long rows);
/// The first line (and row), or the position that shows the last line at its end.
void scroll_to_top(TextScroll& s);
void scroll_to_bottom(TextScroll& s, const TextLines& lines);
/// True when the view shows the end.
bool at_bottom(const TextScroll& s, const TextLines& lines);
/// Puts `line` near the middle of the view (a search hit), within the ends.
void scroll_to_line(TextScroll& s, const TextLines& lines, std::size_t line);
/// `h` `l` `0` `$` (ScrollLeft, ScrollRight, LineStart, LineEnd): half a screen sideways, the
/// start, the end of the longest line shown. Returns false for other actions.
bool scroll_sideways(TextScroll& s, const TextLines& lines, Action a);
/// Turns wrap on or off, keeping the top line.
void toggle_wrap(TextScroll& s);

}  // namespace trainyard
