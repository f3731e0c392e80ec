// A job's tasks as the Tasks pane's filter reads them: one pass over the job along its ordering
// index, no lists loaded.
#include "statement.hpp"
#include "store/store.hpp"

namespace trainyard {

Result<void> Store::each_task_summary(const std::string& account, const std::string& job,
                                      const std::function<void(const TaskSummary&)>& each) {
  auto s = cache_->get(
      "SELECT id, display_name, command_line, state_rank,"
      " state_rank = 3 AND result = 'failure', exit_code, coalesce(failure_code, '') != '',"
      " retry_count, requeue_count, required_slots"
      " FROM tasks WHERE account = ?1 AND job_id = ?2"
      " ORDER BY state_rank, creation_time, id",
      "read task summaries");
  if (!s) return s.error();
  s->bind(1, account).bind(2, job);
  TaskSummary t;
  return detail::each(*s, [&](const detail::Stmt& row) {
    t.id = row.text(0);
    t.display_name = row.text(1);
    t.command_line = row.text(2);
    t.state_rank = row.i32(3);
    t.failed = row.i32(4) != 0;
    t.exit_code = row.is_null(5) ? std::nullopt : std::optional(row.i64(5));
    t.failure_code = row.i32(6) != 0;
    t.retries = row.i64(7);
    t.requeues = row.i64(8);
    t.slots = row.i64(9);
    each(t);
  });
}

}  // namespace trainyard
