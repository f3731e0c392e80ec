// When each part of a Batch account's cache was last confirmed, and from where to poll next.
#include "statement.hpp"
#include "store/store.hpp"

namespace trainyard {

namespace {

SyncMark read_mark(const detail::Stmt& r) {
  return SyncMark{r.text(0), r.opt_time(1), r.opt_time(2), r.text(3), r.text(4), r.opt_time(5)};
}

}  // namespace

Result<void> Store::set_sync_mark(const std::string& account, const SyncMark& mark) {
  auto s = cache_->get(
      "INSERT INTO sync_marks(account, scope, checked_at, watermark, error) "
      "VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT(account, scope) DO UPDATE SET "
      "checked_at = excluded.checked_at, watermark = excluded.watermark, error = excluded.error, "
      "resume_link = '', resume_from = NULL",
      "set sync mark");
  if (!s) return s.error();
  s->bind(1, account).bind(2, mark.scope).bind(3, mark.checked_at).bind(4, mark.watermark);
  return s->bind(5, mark.error).run();
}

Result<void> Store::set_sync_resume(const std::string& account, const std::string& scope,
                                    const std::string& link, std::optional<Timestamp> from) {
  auto s = cache_->get(
      "INSERT INTO sync_marks(account, scope, resume_link, resume_from) VALUES (?1, ?2, ?3, ?4) "
      "ON CONFLICT(account, scope) DO UPDATE SET resume_link = excluded.resume_link, "
      "resume_from = excluded.resume_from",
      "set sync resume point");
  if (!s) return s.error();
  return s->bind(1, account).bind(2, scope).bind(3, link).bind(4, from).run();
}

Result<void> Store::set_sync_error(const std::string& account, const std::string& scope,
                                   const std::string& error) {
  auto s = cache_->get(
      "INSERT INTO sync_marks(account, scope, error) VALUES (?1, ?2, ?3) "
      "ON CONFLICT(account, scope) DO UPDATE SET error = excluded.error",
      "set sync error");
  if (!s) return s.error();
  return s->bind(1, account).bind(2, scope).bind(3, error).run();
}

Result<std::optional<SyncMark>> Store::sync_mark(const std::string& account,
                                                 const std::string& scope) {
  auto s = cache_->get(
      "SELECT scope, checked_at, watermark, error, resume_link, resume_from FROM sync_marks "
      "WHERE account = ?1 AND scope = ?2",
      "read sync mark");
  if (!s) return s.error();
  auto row = s->bind(1, account).bind(2, scope).step();
  if (!row) return row.error();
  if (!*row) return std::optional<SyncMark>{};
  return std::optional<SyncMark>{read_mark(*s)};
}

Result<std::vector<SyncMark>> Store::sync_marks(const std::string& account) {
  auto s = cache_->get(
      "SELECT scope, checked_at, watermark, error, resume_link, resume_from FROM sync_marks "
      "WHERE account = ?1 "
      "ORDER BY scope",
      "read sync marks");
  if (!s) return s.error();
  s->bind(1, account);
  return detail::collect<SyncMark>(*s, read_mark);
}

}  // namespace trainyard
