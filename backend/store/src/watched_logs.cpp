// The Batch logs windows show (schema version 18): the polling process follows them.
#include "statement.hpp"
#include "store/store.hpp"

namespace trainyard {

Result<void> Store::watch_log(const WatchedLog& log) {
  return atomic([&]() -> Result<void> {
    auto s = cache_->get(
        "INSERT OR REPLACE INTO watched_logs(pid, account, job_id, task_id, pool_id, node_id, "
        "file, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        "record a watched log");
    if (!s) return s.error();
    return s->bind(1, log.pid)
        .bind(2, log.account)
        .bind(3, log.job)
        .bind(4, log.task)
        .bind(5, log.pool)
        .bind(6, log.node)
        .bind(7, log.file)
        .bind(8, log.at)
        .run();
  });
}

Result<void> Store::unwatch_logs(int64_t pid, const std::string& account) {
  return atomic([&]() -> Result<void> {
    auto s = cache_->get("DELETE FROM watched_logs WHERE pid = ?1 AND account = ?2",
                         "forget a watched log");
    if (!s) return s.error();
    return s->bind(1, pid).bind(2, account).run();
  });
}

Result<std::vector<WatchedLog>> Store::watched_logs(const std::string& account) {
  auto s = cache_->get(
      "SELECT pid, account, job_id, task_id, pool_id, node_id, file, at FROM watched_logs "
      "WHERE account = ?1 ORDER BY at",
      "read watched logs");
  if (!s) return s.error();
  s->bind(1, account);
  return detail::collect<WatchedLog>(*s, [](const detail::Stmt& r) {
    return WatchedLog{r.i64(0),  r.text(1), r.text(2), r.text(3),
                      r.text(4), r.text(5), r.text(6), r.time(7)};
  });
}

}  // namespace trainyard
