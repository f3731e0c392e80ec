#include "statement.hpp"

#include <fmt/format.h>

namespace trainyard::detail {

ErrorKind kind_of(int rc) {
  return (rc & 0xff) == SQLITE_BUSY ? ErrorKind::Busy : ErrorKind::Db;
}

Error db_error(sqlite3* db, std::string_view what) {
  return make_error(kind_of(sqlite3_extended_errcode(db)),
                    fmt::format("{}: {}", what, sqlite3_errmsg(db)));
}

Result<void> exec(sqlite3* db, const char* sql, std::string_view what) {
  char* msg = nullptr;
  int rc = sqlite3_exec(db, sql, nullptr, nullptr, &msg);
  if (rc == SQLITE_OK) return ok_result();
  // sqlite3_exec's own message is more precise than sqlite3_errmsg after a multi-statement run.
  Error e = make_error(kind_of(rc), fmt::format("{}: {}", what, msg ? msg : "unknown error"));
  sqlite3_free(msg);
  return e;
}

Stmt::Stmt(sqlite3_stmt* s, const char* what, bool* busy) : s_(s), what_(what), busy_(busy) {
  if (busy_) *busy_ = true;
}

Stmt::Stmt(Stmt&& o) noexcept : s_(o.s_), what_(o.what_), busy_(o.busy_), bind_rc_(o.bind_rc_) {
  o.s_ = nullptr;
  o.busy_ = nullptr;
}

Stmt::~Stmt() {
  if (!s_) return;
  if (!busy_) {
    sqlite3_finalize(s_);
    return;
  }
  sqlite3_reset(s_);
  sqlite3_clear_bindings(s_);
  *busy_ = false;
}

Stmt& Stmt::bind(int i, int64_t v) {
  return latch(sqlite3_bind_int64(s_, i, v));
}

Stmt& Stmt::bind(int i, double v) {
  return latch(sqlite3_bind_double(s_, i, v));
}

Stmt& Stmt::bind(int i, std::string_view v) {
  // SQLITE_TRANSIENT: callers may bind temporaries, so SQLite keeps its own copy.
  return latch(sqlite3_bind_text64(s_, i, v.data(), v.size(), SQLITE_TRANSIENT, SQLITE_UTF8));
}

Stmt& Stmt::bind_kept(int i, std::string_view v) {
  return latch(sqlite3_bind_text64(s_, i, v.data(), v.size(), SQLITE_STATIC, SQLITE_UTF8));
}

Stmt& Stmt::bind(int i, std::nullopt_t) {
  return latch(sqlite3_bind_null(s_, i));
}

Result<bool> Stmt::step() {
  sqlite3* db = sqlite3_db_handle(s_);
  if (bind_rc_ != SQLITE_OK) {
    return make_error(ErrorKind::Db, fmt::format("{}: bind: {}", what_, sqlite3_errstr(bind_rc_)));
  }
  int rc = sqlite3_step(s_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return db_error(db, what_);
}

Result<void> Stmt::run() {
  for (;;) {
    auto r = step();
    if (!r) return r.error();
    if (!*r) return ok_result();
  }
}

std::string Stmt::text(int c) const {
  auto* p = reinterpret_cast<const char*>(sqlite3_column_text(s_, c));
  if (!p) return {};
  return std::string(p, static_cast<size_t>(sqlite3_column_bytes(s_, c)));
}

std::optional<int> Stmt::opt_i32(int c) const {
  if (is_null(c)) return std::nullopt;
  return i32(c);
}

std::optional<Timestamp> Stmt::opt_time(int c) const {
  if (is_null(c)) return std::nullopt;
  return time(c);
}

StatementCache::~StatementCache() {
  for (auto& [sql, e] : map_) sqlite3_finalize(e.stmt);
}

Result<Stmt> StatementCache::get(const std::string& sql, const char* what) {
  auto it = map_.find(sql);
  if (it != map_.end() && !it->second.busy) return Stmt(it->second.stmt, what, &it->second.busy);
  bool keep = it == map_.end();
  unsigned flags = keep ? SQLITE_PREPARE_PERSISTENT : 0;
  sqlite3_stmt* s = nullptr;
  if (sqlite3_prepare_v3(db_, sql.c_str(), -1, flags, &s, nullptr) != SQLITE_OK) {
    sqlite3_finalize(s);
    return db_error(db_, what);
  }
  if (!keep) return Stmt(s, what, nullptr);  // the cached one is in use (nested query)
  auto& e = map_[sql];
  e.stmt = s;
  return Stmt(s, what, &e.busy);
}

std::string numbered_rows(size_t rows, size_t columns, size_t first) {
  std::string out;
  for (size_t r = 0; r < rows; ++r) {
    for (size_t i = 0; i < columns; ++i)
      out += (i ? ", ?" : (r ? "), (?" : "(?")) + std::to_string(first + r * columns + i);
  }
  return out + ")";
}

}  // namespace trainyard::detail
