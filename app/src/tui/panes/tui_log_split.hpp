// Internal: two logs at once in the Logs pane, side by side or stacked (tui_log_split.cpp).
#pragma once

#include "tui_state.hpp"

namespace trainyard {

/// The log kept beside the focused one: its frame (account, job, task or node) and its view.
struct LogSplit {
  Frame frame;
  LogState state;
  bool vertical = true;      ///< side by side; false: stacked
  bool focus_second = true;  ///< the focused log is drawn right (or below)
};

/// The Logs pane's split, when one is open (tui_pane_logs.cpp).
std::optional<LogSplit>& log_split(TuiState& st);

/// `|`: the first time, keeps the log on screen in a split and goes back, so the next log
/// opened shows beside it; then, switches side by side ↔ stacked.
void split_logs(TuiState& st);
/// `Tab`: the other log of the split takes the keys (and the pane's title).
void switch_log_focus(TuiState& st);
/// `x`: closes the split, keeping the focused log.
void close_log_split(TuiState& st);
/// Reads what the unfocused log gained.
void refresh_log_split(TuiState& st);
/// Draws the focused log, and the split's other one beside or below it.
void render_log_split(TuiState& st, Canvas& c, Rect r);
/// The keys above; false for any other action.
bool log_split_action(TuiState& st, Action a);

}  // namespace trainyard
