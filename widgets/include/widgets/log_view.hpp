// A log view over a window of already-sanitized lines.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "widgets/canvas.hpp"

namespace trainyard {

/// A run of text with one role: LogText, or LogPlaceholder for what the sanitizer put in
/// place of control bytes, or LogWarn/LogError.
struct LogSpan {
  std::string text;           ///< sanitized UTF-8
  Role role = Role::LogText;  ///< role of the run
};

/// One log line as spans.
using LogLine = std::vector<LogSpan>;

/// What the log view shows.
struct LogViewVm {
  std::vector<LogLine> lines;   ///< window of lines; lines[0] is line number first_line
  std::size_t first_line = 0;   ///< 0-based index of lines[0] in the whole log
  std::size_t total_lines = 0;  ///< lines in the whole log
  bool wrap = false;            ///< wrap long lines (else cut; see x_offset)
  std::size_t first_row = 0;    ///< when wrapping: rows of lines[0] scrolled past
  int x_offset = 0;             ///< cells scrolled right when not wrapping
  bool follow = false;          ///< following the tail
  std::string search;           ///< highlighted text (ASCII case-insensitive); empty: none
  std::optional<std::size_t> current_match;  ///< line (0-based, whole log) of the current match
  std::string note;    ///< shown after the search in the last row (`search wrapped`)
  bool times = false;  ///< show line_times in a gutter left of the lines (`times` in the last row)
  /// One per line of `lines` (`14:02:07`); drawn on a line's first row and never scrolled.
  std::vector<std::string> line_times;
};

/// Draws the lines over all but the last row of `r`; the last row shows `/search` left and
/// `times  wrap  follow  L 120/4000` right (L is the last visible line). Without wrap, a line cut
/// at the right edge ends in `>` and one scrolled past at the left starts with `<`.
void render_log_view(const LogViewVm& vm, Canvas& canvas, Rect r);

/// Rows `line` takes when wrapped at `width` cells, as render_log_view wraps it (at least 1).
std::size_t wrapped_rows(const LogLine& line, int width);
/// Cells `line` takes unwrapped.
int line_cells(const LogLine& line);
/// Cells left for the text of a view `width` cells wide (the times gutter takes the rest).
int log_text_width(const LogViewVm& vm, int width);

}  // namespace trainyard
