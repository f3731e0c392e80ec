#include <gtest/gtest.h>
#include <sqlite3.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

#include "fixtures.hpp"

namespace trainyard::concurrency_test {
namespace {

using testing::bare_task;

using StoreWrite = testing::StoreTest;

int synchronous(Store& s) {
  sqlite3_stmt* st = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(s.handle(), "PRAGMA synchronous", -1, &st, nullptr), SQLITE_OK);
  EXPECT_EQ(sqlite3_step(st), SQLITE_ROW);
  int v = sqlite3_column_int(st, 0);
  sqlite3_finalize(st);
  return v;
}

TEST_F(StoreWrite, RollsBackWhenFnFails) {
  auto r = store_->write([&]() -> Result<void> {
    if (auto u = store_->upsert_task(bare_task("j", "t1", TaskState::Active, 0)); !u) return u;
    if (auto u = store_->upsert_job({.account = "acct", .id = "j"}); !u) return u;
    return make_error(ErrorKind::Conflict, "changed my mind");
  });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::Conflict);
  EXPECT_EQ(r.error().message, "changed my mind");
  EXPECT_FALSE(store_->task("acct", "j", "t1")->has_value());
  EXPECT_FALSE(store_->job("acct", "j")->has_value());
  EXPECT_TRUE(store_->state_history("acct", "j", "t1")->empty());
  // The connection is usable afterwards.
  EXPECT_TRUE(store_->upsert_task(bare_task("j", "t1", TaskState::Active, 0)).ok());
}

TEST_F(StoreWrite, RollsBackWhenFnThrows) {
  auto r = store_->write([&]() -> Result<void> {
    (void)store_->upsert_task(bare_task("j", "t1", TaskState::Active, 0));
    throw std::runtime_error("boom");
  });
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("boom"), std::string::npos);
  EXPECT_FALSE(store_->task("acct", "j", "t1")->has_value());
}

TEST_F(StoreWrite, RefusesNestedWrite) {
  auto r =
      store_->write([&]() -> Result<void> { return store_->write([] { return ok_result(); }); });
  EXPECT_FALSE(r.ok());
}

TEST_F(StoreWrite, IntentDurabilityIsRestored) {
  EXPECT_EQ(synchronous(*store_), 1);
  int inside = -1;
  auto r = store_->write(
      [&]() -> Result<void> {
        inside = synchronous(*store_);
        return ok_result();
      },
      Durability::Intent);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(inside, 2);  // FULL
  EXPECT_EQ(synchronous(*store_), 1);
  ASSERT_TRUE(store_->upsert_local_run({.job = "j", .task = "t"}).ok());
  EXPECT_EQ(synchronous(*store_), 1);
}

TEST_F(StoreWrite, SqliteErrorsBecomeDbErrors) {
  ASSERT_EQ(sqlite3_exec(store_->handle(), "DROP TABLE task_files", nullptr, nullptr, nullptr),
            SQLITE_OK);
  auto r = store_->task_files("acct", "j", "t");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::Db);
  EXPECT_EQ(r.error().message, "read task files: no such table: task_files");
}

TEST_F(StoreWrite, TwoConnectionsWriteConcurrently) {
  auto other = Store::open(db_path());
  ASSERT_TRUE(other.ok()) << other.error().message;
  constexpr int kPerThread = 200;
  auto worker = [](Store* s, const std::string& job, Result<void>* out) {
    for (int i = 0; i < kPerThread && out->ok(); ++i) {
      *out = s->write([&]() -> Result<void> {
        // A read then a write in one transaction: the pattern that deadlocks without
        // BEGIN IMMEDIATE.
        auto n = s->count_tasks({.account = "acct", .job = job});
        if (!n) return n.error();
        auto t = bare_task(job, "t" + std::to_string(*n), TaskState::Running, i);
        if (auto u = s->upsert_task(t); !u) return u;
        return s->set_log_offset("acct", job, t.id, "stdout.txt", i);
      });
      if (out->ok() && i % 10 == 0) *out = s->upsert_account({"acct", AccountKind::Batch, job});
    }
  };
  Result<void> ra, rb;
  std::thread a(worker, store_.get(), "ja", &ra);
  std::thread b(worker, other->get(), "jb", &rb);
  a.join();
  b.join();
  ASSERT_TRUE(ra.ok()) << ra.error().message;
  ASSERT_TRUE(rb.ok()) << rb.error().message;
  EXPECT_EQ(*store_->count_tasks({.account = "acct", .job = "ja"}), kPerThread);
  EXPECT_EQ(*store_->count_tasks({.account = "acct", .job = "jb"}), kPerThread);
  EXPECT_EQ((*other)->task_counts("acct", "")->at(TaskState::Running), 2 * kPerThread);
}

// A writer that outlasts the busy timeout is reported as Busy (retryable), not as a Db failure,
// and leaves the connection usable once the lock is free.
TEST_F(StoreWrite, ALockHeldPastTheBusyTimeoutIsBusy) {
  sqlite3* other = nullptr;
  ASSERT_EQ(sqlite3_open(db_path().c_str(), &other), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(other, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_busy_timeout(store_->handle(), 50);
  auto in_write = store_->write([] { return ok_result(); });
  auto alone = store_->upsert_account({"acct", AccountKind::Batch, "e"});
  sqlite3_exec(other, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close(other);
  ASSERT_FALSE(in_write.ok());
  EXPECT_EQ(in_write.error().kind, ErrorKind::Busy);
  ASSERT_FALSE(alone.ok());
  EXPECT_EQ(alone.error().kind, ErrorKind::Busy);
  EXPECT_TRUE(store_->upsert_account({"acct", AccountKind::Batch, "e"}).ok());
}

TEST(StoreConcurrentOpen, ManyConnectionsOpenAFreshFileAtOnce) {
  testing::TempDir dir;
  constexpr int kThreads = 4;
  std::vector<Result<std::unique_ptr<Store>>> results;
  for (int i = 0; i < kThreads; ++i) results.emplace_back(make_error(ErrorKind::Internal, ""));
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] { results[i] = Store::open(dir.file("cache.db")); });
  }
  for (auto& t : threads) t.join();
  for (auto& r : results) {
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_GE((*r)->schema_version(), 1);
  }
}

}  // namespace
}  // namespace trainyard::concurrency_test
