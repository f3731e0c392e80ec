// Internal: the TUI's side of comparing runs: the `v` key on a run, the Compare pane's data,
// drawing and keys (tui_compare.cpp, tui_compare_render.cpp).
#pragma once

#include <memory>

#include "compare_runs.hpp"
#include "tui_state.hpp"

namespace trainyard {

/// What the Compare pane draws, read on the reader's connection.
struct CompareData : PaneData {
  CompareTable table;
};

/// What the reader needs of the UI thread to read the Compare pane: the set.
struct CompareInput : PaneData {
  CompareSet set;
};

/// Adds the focused pane's run (the selected task of Tasks or Sweep, the task of Detail or
/// Logs) to the compare set, or removes it; the status line says which and how many.
void toggle_compare_run(TuiState& st);
/// Opens the Compare pane over the current one (Escape returns to it); the compared runs of this
/// pane's Batch account have their unread logs read first (their final values are last lines).
void open_compare(AppContext& ctx, TuiState& st);
/// Reads the set's runs for the Compare pane.
std::shared_ptr<const PaneData> read_compare(AppContext& ctx, const CompareSet& set);
/// Draws the compared runs: a table of parameters and final/best values (row `selected`
/// highlighted), then their curves in one chart with a legend.
void render_compare(const TuiState& st, size_t selected, Canvas& c, Rect body);
/// The Compare pane's keys: move, remove the selected run, next metric, flip the direction.
bool compare_action(TuiState& st, Action a, size_t& selected);
/// The selected compared run, when the pane's data has one.
std::optional<RunRef> selected_compare_run(const TuiState& st, size_t selected);

}  // namespace trainyard
