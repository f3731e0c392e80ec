// Which task logs are read to their end: the final marks of remote log copies, the started tasks
// still unread, and the tasks that completed since a point of the state history.
#include "statement.hpp"
#include "store/store.hpp"

namespace trainyard {

namespace {

constexpr const char* kFinalPrefix = "final:";

// The mark of a task's file holds the task's end time: true while the task still ends then.
constexpr const char* kFinalHolds =
    "EXISTS(SELECT 1 FROM log_offsets o WHERE o.account = t.account AND o.job_id = t.job_id "
    "AND o.task_id = t.id AND o.file = 'final:{}' AND o.offset IS t.end_time)";

std::string final_holds(const char* file) {
  std::string sql = kFinalHolds;
  sql.replace(sql.find("{}"), 2, file);
  return sql;
}

}  // namespace

Result<void> Store::mark_task_log_final(const std::string& account, const std::string& job,
                                        const std::string& task, const std::string& file) {
  // WHERE before ON CONFLICT: SQLite's parser needs it after INSERT … SELECT.
  auto s = cache_->get(
      "INSERT INTO log_offsets(account, job_id, task_id, file, offset) "
      "SELECT account, job_id, id, ?4, end_time FROM tasks WHERE account = ?1 AND job_id = ?2 "
      "AND id = ?3 AND state = 'completed' AND end_time IS NOT NULL "
      "ON CONFLICT(account, job_id, task_id, file) DO UPDATE SET offset = excluded.offset",
      "mark a task log read");
  if (!s) return s.error();
  return s->bind(1, account).bind(2, job).bind(3, task).bind(4, kFinalPrefix + file).run();
}

Result<bool> Store::task_log_final(const std::string& account, const std::string& job,
                                   const std::string& task, const std::string& file) {
  auto s = cache_->get(
      "SELECT 1 FROM log_offsets o JOIN tasks t ON t.account = o.account AND "
      "t.job_id = o.job_id AND t.id = o.task_id WHERE o.account = ?1 AND o.job_id = ?2 AND "
      "o.task_id = ?3 AND o.file = ?4 AND t.state = 'completed' AND o.offset IS t.end_time",
      "read a task log's mark");
  if (!s) return s.error();
  auto row = s->bind(1, account).bind(2, job).bind(3, task).bind(4, kFinalPrefix + file).step();
  if (!row) return row.error();
  return *row;
}

Result<std::vector<UnreadTaskLogs>> Store::tasks_with_unread_logs(const std::string& account,
                                                                  const std::string& job,
                                                                  int64_t limit) {
  static const std::string sql =
      "SELECT id, state_rank = 3 FROM tasks t WHERE account = ?1 AND job_id = ?2 AND "
      "(state_rank = 2 OR (state_rank = 3 AND NOT (" +
      final_holds("stdout.txt") + " AND " + final_holds("stderr.txt") +
      "))) ORDER BY state_rank DESC, creation_time, id LIMIT ?3";
  auto s = cache_->get(sql.c_str(), "list unread task logs");
  if (!s) return s.error();
  s->bind(1, account).bind(2, job).bind(3, limit);
  return detail::collect<UnreadTaskLogs>(*s, [](const detail::Stmt& r) {
    return UnreadTaskLogs{r.text(0), r.flag(1)};
  });
}

Result<std::vector<CompletedTaskRow>> Store::tasks_completed_since(const std::string& account,
                                                                   int64_t after, int64_t limit) {
  auto s = cache_->get(
      "SELECT id, job_id, task_id FROM state_history WHERE id > ?2 AND account = ?1 AND "
      "to_state = 'completed' ORDER BY id LIMIT ?3",
      "list completed tasks");
  if (!s) return s.error();
  s->bind(1, account).bind(2, after).bind(3, limit);
  return detail::collect<CompletedTaskRow>(*s, [](const detail::Stmt& r) {
    return CompletedTaskRow{r.i64(0), r.text(1), r.text(2)};
  });
}

Result<int64_t> Store::last_state_change_id() {
  auto s = cache_->get("SELECT coalesce(max(id), 0) FROM state_history", "read state history");
  if (!s) return s.error();
  auto row = s->step();
  if (!row) return row.error();
  return *row ? s->i64(0) : int64_t{0};
}

}  // namespace trainyard
