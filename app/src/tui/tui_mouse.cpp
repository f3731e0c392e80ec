#include "tui_mouse.hpp"

#include <optional>

#include "tui_help.hpp"
#include "tui_state.hpp"

namespace trainyard {
namespace {

// Three rows a notch, as most terminals scroll their own history.
constexpr int kWheelRows = 3;

void scroll_help(const AppContext& ctx, TuiState& st, bool down) {
  auto key = KeyEvent::character(down ? 'j' : 'k');
  for (int i = 0; i < kWheelRows; ++i) handle_help_key(ctx, st, key);
}

void wheel(AppContext& ctx, TuiState& st, bool down) {
  for (int i = 0; i < kWheelRows; ++i) apply_action(ctx, st, down ? Action::Down : Action::Up);
}

// The index (among all rows) of the focused table's row at column `x`, row `y`; none on the
// header, the border, or below the last row.
std::optional<size_t> row_at(const TuiState& st, int x, int y) {
  const auto& pane = focused_pane(st);
  if (!pane.is_table()) return std::nullopt;
  Rect rows = pane.table_rect(st, st.table.pane_body).drop_top(1);
  if (!rows.contains(x, y)) return std::nullopt;
  size_t index = st.stack.back().cursor.first + static_cast<size_t>(y - rows.y);
  if (index >= st.table.page.total) return std::nullopt;
  return index;
}

void click(AppContext& ctx, TuiState& st, int x, int y) {
  auto index = row_at(st, x, y);
  if (!index) return;
  size_t selected = st.top().cursor.selected;
  if (*index == selected) return apply_action(ctx, st, Action::Enter);
  move_selection(st, static_cast<long>(*index) - static_cast<long>(selected));
}

}  // namespace

void handle_mouse(AppContext& ctx, TuiState& st, const KeyEvent& key) {
  bool down = key.key == Key::WheelDown;
  if (st.modal.mode == Mode::Help && key.key != Key::Click) return scroll_help(ctx, st, down);
  if (st.modal.mode != Mode::Normal) return;
  if (key.key == Key::Click) return click(ctx, st, key.x, key.y);
  wheel(ctx, st, down);
}

}  // namespace trainyard
