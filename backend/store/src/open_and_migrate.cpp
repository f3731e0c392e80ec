// Opening a connection, migrations, and the transaction helpers every write goes through.
#include <fmt/format.h>

#include <exception>

#include <chrono>
#include <thread>
#include "schema.hpp"

#include "statement.hpp"
#include "store/store.hpp"

namespace trainyard {
namespace {

// Long enough for another process's short transaction; writes never hold the lock for long.
constexpr int kBusyTimeoutMs = 5000;

Error open_error(sqlite3* db, const std::string& path) {
  return make_error(ErrorKind::Db, fmt::format("open {}: {}", path, sqlite3_errmsg(db)));
}

// Reads the header before anything can write, so a file that is not a database is refused
// and left exactly as it was.
Result<void> probe(sqlite3* db, const std::string& path) {
  if (sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", nullptr, nullptr, nullptr) ==
      SQLITE_OK) {
    return ok_result();
  }
  return open_error(db, path);
}

Result<void> configure(sqlite3* db, const std::string& path) {
  sqlite3_extended_result_codes(db, 1);
  sqlite3_busy_timeout(db, kBusyTimeoutMs);
  TY_TRY(probe(db, path));
  TY_TRY(detail::check_is_ours(db, path));
  // WAL lets readers (the UI) run while a sync worker or supervisor writes. Switching a fresh
  // file to WAL can answer SQLITE_BUSY without calling the busy handler while another process
  // does the same, so it is retried here for as long as the busy timeout.
  auto r = detail::exec(db, "PRAGMA journal_mode=WAL", "set WAL mode");
  for (int waited = 0; !r && waited < kBusyTimeoutMs; waited += 10) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    r = detail::exec(db, "PRAGMA journal_mode=WAL", "set WAL mode");
  }
  if (!r) return make_error(ErrorKind::Db, fmt::format("open {}: {}", path, r.error().message));
  // temp_store=MEMORY keeps statement journals (every task upsert fires triggers, so it gets
  // one) off disk: on a temp file they cost ~1M small writes per 100,000 tasks. A 64 MiB page
  // cache holds a 100,000-task job without spilling mid-transaction.
  return detail::exec(db,
                      "PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=OFF; "
                      "PRAGMA temp_store=MEMORY; PRAGMA cache_size=-65536",
                      "configure connection");
}

Result<void> finish(sqlite3* db, bool committed, Result<void> r) {
  if (!committed) sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
  return r;
}

}  // namespace

Store::Store(sqlite3* db) : db_(db), cache_(std::make_unique<detail::StatementCache>(db)) {}

Store::~Store() {
  cache_.reset();  // finalize statements before the connection closes
  sqlite3_close_v2(db_);
}

Result<std::unique_ptr<Store>> Store::open(const std::string& path) {
  sqlite3* db = nullptr;
  // NOMUTEX: a Store (and its statement cache) serves one thread at a time, so SQLite's own
  // per-call locking of the connection only costs (a lock and unlock per bound value).
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX;
  if (sqlite3_open_v2(path.c_str(), &db, flags, nullptr) != SQLITE_OK) {
    Error e = db ? open_error(db, path) : make_error(ErrorKind::Db, "open " + path + ": no memory");
    sqlite3_close_v2(db);
    return e;
  }
  std::unique_ptr<Store> store(new Store(db));
  TY_TRY(configure(db, path));
  auto v = detail::migrate(db, path);
  if (!v) return v.error();
  store->version_ = *v;
  return store;
}

int Store::schema_version() const {
  return version_;
}

Result<void> Store::write(const std::function<Result<void>()>& fn, Durability d) {
  if (in_write_) return make_error(ErrorKind::Internal, "write: already inside write()");
  // synchronous cannot be relied upon to change mid-transaction: set it before BEGIN.
  if (d == Durability::Intent) {
    TY_TRY(detail::exec(db_, "PRAGMA synchronous=FULL", "write: set synchronous"));
  }
  auto r = [&]() -> Result<void> {
    TY_TRY(detail::exec(db_, "BEGIN IMMEDIATE", "write: begin"));
    in_write_ = true;
    Result<void> body;
    try {
      body = fn();
    } catch (const std::exception& e) {
      body = make_error(ErrorKind::Internal, fmt::format("write: {}", e.what()));
    } catch (...) {
      body = make_error(ErrorKind::Internal, "write: unknown exception");
    }
    in_write_ = false;
    if (!body) return finish(db_, false, body);
    auto c = detail::exec(db_, "COMMIT", "write: commit");
    return finish(db_, c.ok(), c);
  }();
  if (d == Durability::Intent) {
    auto restore = detail::exec(db_, "PRAGMA synchronous=NORMAL", "write: restore synchronous");
    if (r && !restore) return restore;
  }
  return r;
}

Result<void> Store::atomic(const std::function<Result<void>()>& fn, Durability d) {
  if (in_write_) return fn();
  return write(fn, d);
}

Result<void> Store::read(const std::function<Result<void>()>& fn) {
  if (in_write_ || !sqlite3_get_autocommit(db_)) return fn();
  TY_TRY(detail::exec(db_, "BEGIN", "read: begin"));
  auto r = fn();
  // A read-only transaction: COMMIT and ROLLBACK are the same; COMMIT reports nothing new.
  sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr);
  return r;
}

}  // namespace trainyard
