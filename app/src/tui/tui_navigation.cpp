#include "tui_navigation.hpp"

#include "tui_state.hpp"

namespace trainyard {

bool move_in_history(AppContext& ctx, TuiState& st, Action a) {
  if (a != Action::HistoryBack && a != Action::HistoryForward) return false;
  bool back = a == Action::HistoryBack;
  st.notes.action_label = back ? "history back" : "history forward";
  bool moved = back ? history_back(st.history, st.stack) : history_forward(st.history, st.stack);
  if (!moved) {
    set_status(st, back ? "history: nothing before this" : "history: nothing after this");
    return true;
  }
  focused_pane(st).entered(ctx, st);
  return true;
}

}  // namespace trainyard
