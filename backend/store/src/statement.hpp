// RAII prepared statements, a per-connection statement cache and error helpers (store-private).
#pragma once

#include <sqlite3.h>

#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "core/entities.hpp"
#include "core/result.hpp"
#include "core/time.hpp"

namespace trainyard::detail {

/// ErrorKind::Busy for SQLITE_BUSY (a lock held past the busy timeout), else ErrorKind::Db.
ErrorKind kind_of(int rc);
/// `<what>: <sqlite message>` as an ErrorKind::Db (or Busy) error.
Error db_error(sqlite3* db, std::string_view what);
/// Runs one or more SQL statements without results.
Result<void> exec(sqlite3* db, const char* sql, std::string_view what);

/// `rows` parenthesised lists of `columns` numbered parameters each, counting from ?first:
/// numbered_rows(2, 2) is "(?1, ?2), (?3, ?4)", the VALUES of a multi-row INSERT.
std::string numbered_rows(size_t rows, size_t columns, size_t first = 1);

/// A prepared statement: owned (finalized on destruction) or borrowed from a StatementCache
/// (reset and unbound on destruction, so the next user starts clean).
class Stmt {
 public:
  Stmt(sqlite3_stmt* s, const char* what, bool* busy);
  Stmt(Stmt&& o) noexcept;
  Stmt& operator=(Stmt&&) = delete;
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;
  ~Stmt();

  /// Binders; a failure is latched and reported by the next step().
  Stmt& bind(int i, int64_t v);
  Stmt& bind(int i, int v) { return bind(i, int64_t{v}); }
  Stmt& bind(int i, bool v) { return bind(i, int64_t{v ? 1 : 0}); }
  Stmt& bind(int i, double v);
  Stmt& bind(int i, std::string_view v);
  /// Binds text without copying it: `v` must stay alive and unchanged until this Stmt is
  /// destroyed (which resets and unbinds it). For text owned by rows being written.
  Stmt& bind_kept(int i, std::string_view v);
  Stmt& bind(int i, const char* v) { return bind(i, std::string_view(v)); }
  Stmt& bind(int i, const std::string& v) { return bind(i, std::string_view(v)); }
  Stmt& bind(int i, std::nullopt_t);
  Stmt& bind(int i, Timestamp t) { return bind(i, to_micros(t)); }
  Stmt& bind(int i, Duration d) { return bind(i, int64_t{d.count()}); }
  template <typename E>
  requires std::is_enum_v<E> Stmt& bind(int i, E e) {
    // Wire names are views of string literals (core/enums), so they need no copy.
    static_assert(std::is_same_v<decltype(to_wire(e)), std::string_view>);
    return bind_kept(i, to_wire(e));
  }
  template <typename T>
  Stmt& bind(int i, const std::optional<T>& v) {
    return v ? bind(i, *v) : bind(i, std::nullopt);
  }

  /// Advances: true with a row, false when done.
  Result<bool> step();
  /// Steps to completion (INSERT, UPDATE, DELETE).
  Result<void> run();

  bool is_null(int c) const { return sqlite3_column_type(s_, c) == SQLITE_NULL; }
  int64_t i64(int c) const { return sqlite3_column_int64(s_, c); }
  int i32(int c) const { return sqlite3_column_int(s_, c); }
  double f64(int c) const { return sqlite3_column_double(s_, c); }
  bool flag(int c) const { return i64(c) != 0; }
  std::string text(int c) const;
  std::optional<int> opt_i32(int c) const;
  std::optional<Timestamp> opt_time(int c) const;
  Timestamp time(int c) const { return from_micros(i64(c)); }
  /// An enum stored by wire name; `fallback` when unknown (never expected).
  template <typename E>
  E wire(int c, E fallback) const {
    return from_wire<E>(text(c)).value_or(fallback);
  }
  template <typename E>
  std::optional<E> opt_wire(int c) const {
    return is_null(c) ? std::nullopt : from_wire<E>(text(c));
  }

 private:
  /// Keeps the first failed bind's code for step() to report.
  Stmt& latch(int rc) {
    if (bind_rc_ == SQLITE_OK) bind_rc_ = rc;
    return *this;
  }

  sqlite3_stmt* s_;
  const char* what_;
  bool* busy_;  // null when owned
  int bind_rc_ = SQLITE_OK;
};

/// Prepared statements by SQL text, kept for the connection's life.
class StatementCache {
 public:
  explicit StatementCache(sqlite3* db) : db_(db) {}
  ~StatementCache();
  StatementCache(const StatementCache&) = delete;
  StatementCache& operator=(const StatementCache&) = delete;

  /// The cached statement for `sql`; a fresh owned one when the cached one is in use.
  Result<Stmt> get(const std::string& sql, const char* what);
  sqlite3* db() const { return db_; }

 private:
  struct Entry {
    sqlite3_stmt* stmt = nullptr;
    bool busy = false;
  };
  sqlite3* db_;
  std::unordered_map<std::string, Entry> map_;
};

/// Collects every row of a bound statement through `read(const Stmt&)`.
template <typename T, typename F>
Result<std::vector<T>> collect(Stmt& s, F read) {
  std::vector<T> out;
  for (;;) {
    auto row = s.step();
    if (!row) return row.error();
    if (!*row) return out;
    out.push_back(read(s));
  }
}

/// Passes every row of a bound statement to `use(const Stmt&)`.
template <typename F>
Result<void> each(Stmt& s, F use) {
  for (;;) {
    auto row = s.step();
    if (!row) return row.error();
    if (!*row) return ok_result();
    use(s);
  }
}

}  // namespace trainyard::detail
