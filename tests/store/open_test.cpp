#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "store/price_cache.hpp"
#include "store/store.hpp"
#include "temp_dir.hpp"

namespace trainyard {
namespace {

using testing::TempDir;

std::string pragma_text(sqlite3* db, const char* sql) {
  sqlite3_stmt* s = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db, sql, -1, &s, nullptr), SQLITE_OK);
  std::string out;
  if (sqlite3_step(s) == SQLITE_ROW) out = reinterpret_cast<const char*>(sqlite3_column_text(s, 0));
  sqlite3_finalize(s);
  return out;
}

// Creates a plain SQLite file with the given user_version, as another program might.
void make_db(const std::string& path, int version) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  std::string sql = "CREATE TABLE other(x); PRAGMA user_version = " + std::to_string(version);
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(StoreOpen, CreatesAndMigratesToLatest) {
  TempDir dir;
  auto s = Store::open(dir.file("cache.db"));
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_GE((*s)->schema_version(), 1);
  EXPECT_EQ(pragma_text((*s)->handle(), "PRAGMA user_version"),
            std::to_string((*s)->schema_version()));
  EXPECT_EQ(pragma_text((*s)->handle(), "PRAGMA journal_mode"), "wal");
  EXPECT_EQ(pragma_text((*s)->handle(), "PRAGMA synchronous"), "1");  // NORMAL
  EXPECT_EQ(
      pragma_text((*s)->handle(), "SELECT count(*) FROM sqlite_master WHERE name LIKE '%fts%'"),
      "0");
}

// Version 13 caches carry the FTS5 trigram index that opening used to create, with its
// triggers: version 14 drops them all and keeps the tasks, which are then written as before.
TEST(StoreOpen, Version13sSubstringIndexIsDropped) {
  TempDir dir;
  auto path = dir.file("cache.db");
  {
    auto s = Store::open(path);
    ASSERT_TRUE(s.ok()) << s.error().message;
    ASSERT_EQ(sqlite3_exec((*s)->handle(),
                           "CREATE VIRTUAL TABLE task_fts USING fts5(id, display_name, "
                           "command_line, content='tasks', content_rowid='pk', "
                           "tokenize='trigram', columnsize=0);"
                           "CREATE TABLE task_fts_pending(pk INTEGER PRIMARY KEY);"
                           "CREATE TRIGGER tasks_fts_insert AFTER INSERT ON tasks BEGIN "
                           "INSERT OR IGNORE INTO task_fts_pending(pk) VALUES (new.pk); END;"
                           "DROP TABLE removed_runs; DROP TABLE removed_run_params; "
                           "DROP TABLE watched_logs; "
                           "ALTER TABLE jobs DROP COLUMN on_all_tasks_complete; "
                           "ALTER TABLE jobs DROP COLUMN on_task_failure; "
                           "ALTER TABLE jobs DROP COLUMN terminate_reason; "
                           "ALTER TABLE local_runs DROP COLUMN exit_conditions; "
                           "PRAGMA user_version = 13;",
                           nullptr, nullptr, nullptr),
              SQLITE_OK);
    Task t;
    t.account = "acct";
    t.job_id = "j";
    t.id = "kept";
    ASSERT_TRUE((*s)->upsert_task(t).ok());
    EXPECT_EQ(pragma_text((*s)->handle(), "SELECT count(*) FROM task_fts_pending"), "1");
  }
  auto s = Store::open(path);
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ((*s)->schema_version(), 18);
  EXPECT_EQ(
      pragma_text((*s)->handle(), "SELECT count(*) FROM sqlite_master WHERE name LIKE '%fts%'"),
      "0");
  Task t;
  t.account = "acct";
  t.job_id = "j";
  t.id = "added";
  ASSERT_TRUE((*s)->upsert_task(t).ok());
  EXPECT_EQ(*(*s)->count_tasks({.account = "acct", .job = "j"}), 2);
  ASSERT_TRUE((*s)->delete_task("acct", "j", "kept").ok());
  EXPECT_EQ(*(*s)->count_tasks({.account = "acct", .job = "j", .substring = "ADD"}), 1);
}

TEST(StoreOpen, ReopenIsIdempotentAndKeepsData) {
  TempDir dir;
  int version = 0;
  {
    auto s = Store::open(dir.file("cache.db"));
    ASSERT_TRUE(s.ok()) << s.error().message;
    version = (*s)->schema_version();
    ASSERT_TRUE((*s)->upsert_account({"acct", AccountKind::Batch, "https://x"}).ok());
  }
  for (int i = 0; i < 2; ++i) {
    auto s = Store::open(dir.file("cache.db"));
    ASSERT_TRUE(s.ok()) << s.error().message;
    EXPECT_EQ((*s)->schema_version(), version);
    auto accounts = (*s)->accounts();
    ASSERT_TRUE(accounts.ok());
    ASSERT_EQ(accounts->size(), 1u);
    EXPECT_EQ((*accounts)[0].name, "acct");
  }
}

TEST(StoreOpen, MigratesAnEmptyDatabase) {
  TempDir dir;
  auto path = dir.file("cache.db");
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "PRAGMA page_size=4096; VACUUM", nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(db);
  }
  auto s = Store::open(path);
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_GE((*s)->schema_version(), 1);
  EXPECT_TRUE((*s)->upsert_account({"a", AccountKind::Local, ""}).ok());
}

TEST(StoreOpen, RefusesAnotherProgramsDatabaseUntouched) {
  TempDir dir;
  auto path = dir.file("cache.db");
  make_db(path, 0);
  auto before = slurp(path);
  auto s = Store::open(path);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("not a trainyard database"), std::string::npos)
      << s.error().message;
  EXPECT_NE(s.error().message.find(path), std::string::npos) << s.error().message;
  EXPECT_EQ(slurp(path), before);
  EXPECT_FALSE(std::filesystem::exists(path + "-wal"));
}

TEST(StoreOpen, RefusesANewerSchema) {
  TempDir dir;
  auto path = dir.file("cache.db");
  make_db(path, 999);
  auto s = Store::open(path);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().kind, ErrorKind::Db);
  EXPECT_NE(s.error().message.find("999"), std::string::npos) << s.error().message;
  EXPECT_NE(s.error().message.find("newer"), std::string::npos) << s.error().message;
  EXPECT_NE(s.error().message.find(path), std::string::npos) << s.error().message;
}

TEST(StoreOpen, RefusesGarbageAndLeavesItUntouched) {
  TempDir dir;
  auto path = dir.file("cache.db");
  std::ostringstream garbage;
  for (int i = 0; i < 200; ++i) garbage << "this is a text file, not a database " << i << "\n";
  std::ofstream(path, std::ios::binary) << garbage.str();
  auto s = Store::open(path);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().kind, ErrorKind::Db);
  EXPECT_NE(s.error().message.find(path), std::string::npos) << s.error().message;
  EXPECT_NE(s.error().message.find("not a database"), std::string::npos) << s.error().message;
  EXPECT_EQ(s.error().message.find('\n'), std::string::npos);
  EXPECT_EQ(slurp(path), garbage.str());
  EXPECT_FALSE(std::filesystem::exists(path + "-wal"));
  EXPECT_FALSE(std::filesystem::exists(path + "-journal"));
}

TEST(StoreOpen, RefusesAShortGarbageFile) {
  TempDir dir;
  auto path = dir.file("cache.db");
  std::ofstream(path, std::ios::binary) << "hello\n";
  auto s = Store::open(path);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find(path), std::string::npos) << s.error().message;
  EXPECT_EQ(slurp(path), "hello\n");
}

TEST(StoreOpen, MissingDirectoryIsAClearError) {
  TempDir dir;
  auto path = dir.file("no/such/dir/cache.db");
  auto s = Store::open(path);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().kind, ErrorKind::Db);
  EXPECT_NE(s.error().message.find(path), std::string::npos) << s.error().message;
}

TEST(StoreOpen, InMemoryDatabaseWorks) {
  auto s = Store::open(":memory:");
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_GE((*s)->schema_version(), 1);
}

}  // namespace
}  // namespace trainyard

namespace trainyard {
namespace {

// A cache.db written by the version-1 schema opens, migrates forward and keeps its data.
TEST(StoreMigration, Version1DatabaseMigratesForward) {
  char tmpl[] = "/tmp/trainyard-migrate-XXXXXX";
  std::string dir = mkdtemp(tmpl);
  std::string path = dir + "/cache.db";
  {
    auto s = Store::open(path);
    ASSERT_TRUE(s.ok());
    Task t;
    t.account = "local";
    t.job_id = "j";
    t.id = "t";
    t.command_line = "true";
    ASSERT_TRUE((*s)->upsert_task(t).ok());
    Task done = t;
    done.id = "done";
    done.state = TaskState::Completed;
    ASSERT_TRUE((*s)->upsert_task(done).ok());
    // Before it starts, a run's gpu_ids are its pin; after, the GPUs it was given.
    ASSERT_TRUE((*s)->upsert_local_run(LocalRun{.job = "j", .task = "t", .gpu_ids = "1"}).ok());
    ASSERT_TRUE((*s)->upsert_local_run(LocalRun{.job = "j", .task = "done", .gpu_ids = "0"}).ok());
    // Turn it back into what version 1 wrote.
    ASSERT_EQ(sqlite3_exec((*s)->handle(),
                           "DROP TABLE task_params; DROP TABLE sync_marks; "
                           "ALTER TABLE pools DROP COLUMN resize_error; "
                           "ALTER TABLE nodes DROP COLUMN error; DROP TABLE subtasks; "
                           "ALTER TABLE tasks DROP COLUMN instances; "
                           "ALTER TABLE tasks DROP COLUMN coordination_command; "
                           "ALTER TABLE local_runs DROP COLUMN instance_groups; "
                           "ALTER TABLE pools DROP COLUMN last_modified; "
                           "ALTER TABLE pools DROP COLUMN etag; "
                           "ALTER TABLE jobs DROP COLUMN last_modified; "
                           "ALTER TABLE jobs DROP COLUMN etag; "
                           "ALTER TABLE tasks DROP COLUMN last_modified; "
                           "ALTER TABLE tasks DROP COLUMN etag; "
                           "ALTER TABLE local_runs DROP COLUMN waiting_reason; "
                           "ALTER TABLE local_runs DROP COLUMN pinned_gpu_ids; "
                           "DROP INDEX tasks_requeued; "
                           "ALTER TABLE nodes DROP COLUMN is_dedicated; "
                           "ALTER TABLE tasks DROP COLUMN resource_files; "
                           "ALTER TABLE tasks DROP COLUMN output_files; "
                           "DROP TABLE output_params; DROP TABLE metric_series; "
                           "DROP TABLE removed_runs; DROP TABLE removed_run_params; "
                           "DROP TABLE watched_logs; "
                           "ALTER TABLE jobs DROP COLUMN on_all_tasks_complete; "
                           "ALTER TABLE jobs DROP COLUMN on_task_failure; "
                           "ALTER TABLE jobs DROP COLUMN terminate_reason; "
                           "ALTER TABLE local_runs DROP COLUMN exit_conditions; "
                           "DROP TABLE pool_samples; DROP TABLE log_marks; "
                           "DROP TABLE vm_prices; DROP TABLE vm_price_fetches; "
                           "ALTER TABLE state_history DROP COLUMN retry_count; "
                           "ALTER TABLE state_history DROP COLUMN requeue_count; "
                           "DROP TABLE metric_points; "
                           "CREATE TABLE metric_series(id INTEGER PRIMARY KEY, "
                           "account TEXT NOT NULL, job_id TEXT NOT NULL, task_id TEXT NOT NULL, "
                           "name TEXT NOT NULL, UNIQUE(account, job_id, task_id, name)); "
                           "CREATE TABLE metric_points(series_id INTEGER NOT NULL, "
                           "step REAL NOT NULL, value REAL NOT NULL, at INTEGER NOT NULL); "
                           "CREATE INDEX metric_points_by_step ON metric_points(series_id, step); "
                           "INSERT INTO metric_series VALUES (5, 'local', 'j', 'm', 'loss'); "
                           "INSERT INTO metric_points VALUES (5, 2, 0.5, 0), (5, 1, 0.9, 0); "
                           "PRAGMA user_version = 1;",
                           nullptr, nullptr, nullptr),
              SQLITE_OK);
  }
  auto s = Store::open(path);
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ((*s)->schema_version(), 18);
  // Version 13: the price cache.
  EXPECT_TRUE(store_prices(**s, "Standard_NC6", "", {}, from_micros(1)).ok());
  // Version 9: a queued run keeps its pin; one that started takes any GPUs when retried.
  EXPECT_EQ((*s)->local_run("j", "t")->value().pinned_gpu_ids, "1");
  EXPECT_EQ((*s)->local_run("j", "done")->value().pinned_gpu_ids, "");
  auto t = (*s)->task("local", "j", "t");
  ASSERT_TRUE(t.ok() && t->has_value());
  EXPECT_FALSE((*t)->multi_instance);
  EXPECT_FALSE((*t)->last_modified);  // version 6: a migrated row has no service version yet
  ASSERT_TRUE((*s)->replace_subtasks("local", "j", "t", {Subtask{}}).ok());
  ASSERT_TRUE((*s)->set_task_parameters("local", "j", "t", {{"lr", "0.1"}, {"bs", "32"}}).ok());
  auto p = (*s)->task_parameters("local", "j", "t");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(*p, (std::vector<NameValue>{{"lr", "0.1"}, {"bs", "32"}}));
  ASSERT_TRUE((*s)->delete_task("local", "j", "t").ok());
  EXPECT_TRUE((*s)->task_parameters("local", "j", "t")->empty());
  // Version 10: old series are stdout's first attempt, their points in the old (step) order.
  auto loss = (*s)->metric_points("local", "j", "m", "loss", "stdout");
  ASSERT_TRUE(loss.ok()) << loss.error().message;
  ASSERT_EQ(loss->size(), 2u);
  EXPECT_EQ((*loss)[0].value, 0.9);
  EXPECT_EQ((*loss)[1].value, 0.5);
  EXPECT_EQ((*s)->metric_series("local", "j", "m")->front().points, 2);
  // Version 7: why a local run waits.
  ASSERT_TRUE(
      (*s)->upsert_local_run(LocalRun{.job = "j", .task = "t", .waiting_reason = "x"}).ok());
  EXPECT_EQ((*s)->local_run("j", "t")->value().waiting_reason, "x");
  // Version 3: pool health and sync marks.
  Pool pool;
  pool.account = "a";
  pool.id = "p";
  pool.resize_error = "AllocationTimedout: no capacity";
  pool.last_modified = from_micros(1'700'000'000'000'000);
  pool.etag = "0x1";
  ASSERT_TRUE((*s)->upsert_pool(pool).ok());
  EXPECT_EQ((*s)->pools("a")->front().resize_error, pool.resize_error);
  EXPECT_EQ((*s)->pools("a")->front().last_modified, pool.last_modified);
  EXPECT_EQ((*s)->pools("a")->front().etag, "0x1");
  EXPECT_TRUE((*s)->set_sync_mark("a", {"pools", Timestamp{}, std::nullopt, ""}).ok());
  // Version 8: Spot nodes, a task's files and its requeues.
  ASSERT_TRUE((*s)->upsert_node(Node{.account = "a", .pool_id = "p", .id = "n"}).ok());
  EXPECT_TRUE((*s)->nodes("a", "p")->front().is_dedicated);  // what every node was before
  EXPECT_TRUE((*s)->task("local", "j", "t").ok());
  EXPECT_EQ(*(*s)->requeue_total("local"), 0);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace trainyard
