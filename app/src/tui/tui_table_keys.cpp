// Marks, the column chooser, wide mode and the JSON view, from any table pane.
#include "tui_table_keys.hpp"

#include <fmt/format.h>

#include "tui_pane_routes.hpp"
#include "tui_state.hpp"

namespace trainyard {
namespace {

void push_sub_pane(AppContext& ctx, TuiState& st, Frame next) {
  next.cursor = {};
  st.stack.push_back(std::move(next));
  focused_pane(st).entered(ctx, st);
}

}  // namespace

void toggle_wide(TuiState& st) {
  st.table.columns.wide = !st.table.columns.wide;
  set_status(st, st.table.columns.wide ? "wide mode on: more columns (W: off)" : "wide mode off");
}

void open_column_chooser(AppContext& ctx, TuiState& st) {
  auto& pane = focused_pane(st);
  if (!pane.is_table() || st.table.page.column_ids.empty())
    return set_status(st, "this pane's columns are fixed");
  push_sub_pane(ctx, st, columns_frame(st.top(), pane.name()));
}

void open_entity_json(AppContext& ctx, TuiState& st) {
  const auto& pane = focused_pane(st);
  auto kind = pane.row_kind();
  auto key = selected_key(st);
  if (kind.empty())
    return set_status(st, "y shows a pool, node, job, task or account: this pane lists none");
  if (!key) return set_status(st, "no row selected");
  auto [account, id] = pane.row_entity(st.top(), *key);
  push_sub_pane(ctx, st, json_frame(st.top(), account, kind + "/" + id));
}

bool table_key_action(AppContext& ctx, TuiState& st, Action a) {
  switch (a) {
    case Action::Mark:
      return toggle_row_mark(st), true;
    case Action::Columns:
      return open_column_chooser(ctx, st), true;
    case Action::Wide:
      return toggle_wide(st), true;
    case Action::ShowJson:
      return open_entity_json(ctx, st), true;
    default:
      return false;
  }
}

}  // namespace trainyard
