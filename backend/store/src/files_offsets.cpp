// Task file lists, log read offsets and the marks that date a log's lines.
#include "statement.hpp"
#include "store/store.hpp"

namespace trainyard {

Result<void> Store::set_task_files(const std::string& account, const std::string& job,
                                   const std::string& task, const std::vector<TaskFile>& files) {
  return atomic([&]() -> Result<void> {
    auto del =
        cache_->get("DELETE FROM task_files WHERE account = ?1 AND job_id = ?2 AND task_id = ?3",
                    "set task files");
    if (!del) return del.error();
    TY_TRY(del->bind(1, account).bind(2, job).bind(3, task).run());
    for (const auto& f : files) {
      // OR REPLACE: a listing that names a file twice keeps the last entry.
      auto s = cache_->get(
          "INSERT OR REPLACE INTO task_files(account, job_id, task_id, name, size, "
          "is_directory, last_modified) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
          "set task files");
      if (!s) return s.error();
      s->bind(1, account).bind(2, job).bind(3, task).bind(4, f.name).bind(5, f.size);
      TY_TRY(s->bind(6, f.is_directory).bind(7, f.last_modified).run());
    }
    return ok_result();
  });
}

Result<std::vector<TaskFile>> Store::task_files(const std::string& account, const std::string& job,
                                                const std::string& task) {
  auto s = cache_->get(
      "SELECT name, size, is_directory, last_modified FROM task_files "
      "WHERE account = ?1 AND job_id = ?2 AND task_id = ?3 ORDER BY name",
      "read task files");
  if (!s) return s.error();
  s->bind(1, account).bind(2, job).bind(3, task);
  return detail::collect<TaskFile>(*s, [](const detail::Stmt& r) {
    return TaskFile{r.text(0), r.i64(1), r.flag(2), r.opt_time(3)};
  });
}

Result<void> Store::set_log_offset(const std::string& account, const std::string& job,
                                   const std::string& task, const std::string& file,
                                   int64_t offset) {
  auto s = cache_->get(
      "INSERT INTO log_offsets(account, job_id, task_id, file, offset) "
      "VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT(account, job_id, task_id, file) "
      "DO UPDATE SET offset = excluded.offset",
      "set log offset");
  if (!s) return s.error();
  s->bind(1, account).bind(2, job).bind(3, task).bind(4, file);
  TY_TRY(s->bind(5, offset).run());
  return offset == 0 ? clear_log_marks(account, job, task, file) : ok_result();
}

Result<int64_t> Store::log_offset(const std::string& account, const std::string& job,
                                  const std::string& task, const std::string& file) {
  auto s = cache_->get(
      "SELECT offset FROM log_offsets "
      "WHERE account = ?1 AND job_id = ?2 AND task_id = ?3 AND file = ?4",
      "read log offset");
  if (!s) return s.error();
  auto row = s->bind(1, account).bind(2, job).bind(3, task).bind(4, file).step();
  if (!row) return row.error();
  return *row ? s->i64(0) : int64_t{0};
}

Result<void> Store::add_log_mark(const std::string& account, const std::string& job,
                                 const std::string& task, const std::string& file,
                                 const LogMark& mark) {
  // A later read of the same end (a poll that found nothing new) keeps the first time.
  auto s = cache_->get(
      "INSERT OR IGNORE INTO log_marks(account, job_id, task_id, file, end_offset, seen_at) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
      "add log mark");
  if (!s) return s.error();
  s->bind(1, account).bind(2, job).bind(3, task).bind(4, file);
  return s->bind(5, mark.end_offset).bind(6, mark.seen_at).run();
}

Result<void> Store::clear_log_marks(const std::string& account, const std::string& job,
                                    const std::string& task, const std::string& file) {
  auto s = cache_->get(
      "DELETE FROM log_marks WHERE account = ?1 AND job_id = ?2 AND task_id = ?3 AND file = ?4",
      "clear log marks");
  if (!s) return s.error();
  return s->bind(1, account).bind(2, job).bind(3, task).bind(4, file).run();
}

Result<std::vector<LogMark>> Store::log_marks(const std::string& account, const std::string& job,
                                              const std::string& task, const std::string& file,
                                              int64_t after, int limit) {
  auto s = cache_->get(
      "SELECT end_offset, seen_at FROM log_marks WHERE account = ?1 AND job_id = ?2 AND "
      "task_id = ?3 AND file = ?4 AND end_offset > ?5 ORDER BY end_offset LIMIT ?6",
      "read log marks");
  if (!s) return s.error();
  s->bind(1, account).bind(2, job).bind(3, task).bind(4, file).bind(5, after);
  s->bind(6, static_cast<int64_t>(limit));
  return detail::collect<LogMark>(*s, [](const detail::Stmt& r) {
    return LogMark{r.i64(0), r.time(1)};
  });
}

}  // namespace trainyard
