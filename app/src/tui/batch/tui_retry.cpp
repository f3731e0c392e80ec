// `a` on a local run: a finished run is queued again as its next attempt.
#include "local/task_environment.hpp"
#include "local_action.hpp"
#include "tui_batch.hpp"
#include "tui_state.hpp"

namespace trainyard {

void retry_local_run(TuiState& st) {
  auto task = focused_pane(st).selected_task(st);
  if (!task || task->empty()) return set_status(st, "no task selected");
  const std::string job = st.top().job, id = *task;
  // The TUI's environment, as `trainyard run` from this shell would pass it: a finished run's
  // saved environment was deleted when it ended.
  auto environment = current_environment();
  run_local(st, act::reactivate_run(job, id, environment).run);
}

}  // namespace trainyard
