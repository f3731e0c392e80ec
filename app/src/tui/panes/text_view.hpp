// Internal: a text view over lines held in memory (the JSON view, a plugin's output), with the
// log view's keys: scrolling, wrap (w), sideways (h l 0 $) and search (/ n N), drawn as the log
// view draws them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "text_scroll.hpp"
#include "widgets/canvas.hpp"
#include "widgets/log_view.hpp"

namespace trainyard {

struct TuiState;

/// Where the view is and what it searches for.
struct TextView {
  TextScroll view;
  std::string search;           ///< the query (ASCII case ignored); empty: none
  std::optional<size_t> match;  ///< the line of the current match
  bool wrapped = false;         ///< the last search step came round from the other end
};

/// `text` as one line of a text view.
LogLine text_line(const std::string& text);

/// Handles a text view's key; false for keys it does not take (they go on to the other maps).
bool text_view_act(TextView& tv, const std::vector<LogLine>& lines, TuiState& st, Action a);
/// Searches `query` from the top of the screen (the search prompt's Enter).
void text_view_search(TextView& tv, const std::vector<LogLine>& lines, TuiState& st,
                      const std::string& query);
/// Draws the view in `r`, its last row the status line (`/query  wrap  L 12/40`).
void render_text_view(TextView& tv, const std::vector<LogLine>& lines, Canvas& c, Rect r);

}  // namespace trainyard
