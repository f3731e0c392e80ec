// A job's failed tasks, the latest failure first (the Failed pane).
#include "statement.hpp"
#include "store/store.hpp"
#include "task_rows.hpp"

namespace trainyard {

Result<std::vector<Task>> Store::failed_tasks(const std::string& account, const std::string& job,
                                              int64_t offset, int64_t limit) {
  // The ordering index narrows to the job's completed tasks; only their result is read.
  auto s = cache_->get("SELECT " + detail::task_columns() +
                           " FROM tasks WHERE account = ?1 AND job_id = ?2 AND state_rank = 3"
                           " AND result = 'failure' ORDER BY end_time DESC, id LIMIT ?4 OFFSET ?3",
                       "list failed tasks");
  if (!s) return s.error();
  s->bind(1, account).bind(2, job).bind(3, offset).bind(4, limit);
  return detail::collect<Task>(*s, [](const detail::Stmt& r) { return detail::read_task(r); });
}

}  // namespace trainyard
