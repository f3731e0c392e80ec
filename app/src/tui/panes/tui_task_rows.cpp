// The rows of a job's tasks (the Tasks and Failed panes): Enter opens a row's log, and `d`,
// `l` and the local stop and retry take the row's task.
#include "tui_state.hpp"

namespace trainyard {

std::optional<Frame> TaskRowsPane::drill(const Frame& f, const std::string& key) const {
  Frame next = f;
  next.task = key;
  next.view = View::Logs;
  return next;
}

bool TaskRowsPane::select_for_detail(TuiState& st, Frame& next) const {
  auto key = selected_key(st);
  if (!key) return false;
  next.task = *key;
  return true;
}

std::optional<std::string> TaskRowsPane::selected_task(const TuiState& st) const {
  return selected_key(st);
}

}  // namespace trainyard
