// A store another process keeps locked: outcomes are never lost, and the engine holds no write
// transaction while it probes GPUs or ends process groups.
#include <sqlite3.h>

#include <thread>

#include "engine_fixture.hpp"

namespace trainyard::test::engine_busy_store_test {
namespace {

/// Another connection holding the write lock (BEGIN IMMEDIATE), as a second process would.
class WriteLock {
 public:
  explicit WriteLock(const std::string& db) {
    EXPECT_EQ(sqlite3_open(db.c_str(), &db_), SQLITE_OK);
    sqlite3_busy_timeout(db_, 10000);  // a supervisor's own write may be under way
    EXPECT_EQ(sqlite3_exec(db_, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
  }
  ~WriteLock() {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close(db_);
  }
  WriteLock(const WriteLock&) = delete;
  WriteLock& operator=(const WriteLock&) = delete;

 private:
  sqlite3* db_ = nullptr;
};

/// Whether another connection can take the write lock right now (no waiting).
bool write_lock_is_free(const std::string& db) {
  sqlite3* c = nullptr;
  sqlite3_open(db.c_str(), &c);
  sqlite3_busy_timeout(c, 0);
  bool free = sqlite3_exec(c, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK;
  sqlite3_exec(c, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close(c);
  return free;
}

bool wait_for_file(const std::string& path, std::chrono::seconds limit) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (!std::filesystem::exists(path)) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(20ms);
  }
  return true;
}

void expect_exit_3(const Task& t) {
  EXPECT_EQ(t.state, TaskState::Completed);
  EXPECT_EQ(t.execution_info.result, TaskResult::Failure);
  EXPECT_EQ(t.execution_info.exit_code, 3);
  ASSERT_TRUE(t.execution_info.failure_info);
  EXPECT_EQ(t.execution_info.failure_info->code, "FailureExitCode");
  EXPECT_EQ(t.execution_info.failure_info->message, "the task exited with code 3");
}

// The store stays locked for 10 s, twice the busy timeout, as the task ends: the supervisor keeps
// trying until the outcome is stored.
TEST_F(EngineTest, AnOutcomeIsStoredOnceALongHeldLockIsReleased) {
  submit(request("busy", "sleep 2; exit 3"));
  wait_state("busy", TaskState::Running);
  {
    WriteLock lock(dir_ + "/cache.db");
    for (int i = 0; i < 200; ++i) {
      engine_->reap_children();
      std::this_thread::sleep_for(50ms);
    }
  }
  expect_exit_3(wait_done("busy"));
}

// The supervisor dies after the task ended, while it waits for the store: the next pass reads
// the outcome from the run directory instead of calling the run lost.
TEST_F(EngineTest, ReconciliationRecordsTheOutcomeFromTheRunsFiles) {
  submit(request("killed", "sleep 0.3; exit 3"));
  wait_state("killed", TaskState::Running);
  auto run = run_of("killed");
  ASSERT_TRUE(run);
  auto paths = run_paths(dir_, "j", "killed");
  {
    WriteLock lock(dir_ + "/cache.db");
    ASSERT_TRUE(wait_for_file(paths.dir + "/outcome", 10s));
    ASSERT_EQ(kill(static_cast<pid_t>(run->supervisor_pid), SIGKILL), 0);
    reap_while([&] {
      return process_matches(static_cast<pid_t>(run->supervisor_pid), run->supervisor_start);
    });
  }
  ASSERT_TRUE(engine_->schedule().ok());
  auto t = wait_done("killed");
  expect_exit_3(t);
  auto after = run_of("killed");
  ASSERT_TRUE(after);
  EXPECT_EQ(after->supervisor_pid, 0);
  EXPECT_FALSE(std::filesystem::exists(paths.environment));
}

TEST_F(EngineTest, GpusAreProbedOutsideAnyWriteTransaction) {
  int calls = 0, inside = 0;
  config_.gpu_probe = [&] {
    ++calls;
    inside += sqlite3_get_autocommit(store_->handle()) == 0;
    return std::vector<GpuSlot>{};
  };
  engine_ = std::make_unique<LocalEngine>(*store_, config_, clock_);
  submit(request("probed", "true"));
  wait_done("probed");
  ASSERT_TRUE(engine_->schedule().ok());
  EXPECT_GT(calls, 0);
  EXPECT_EQ(inside, 0) << inside << " of " << calls << " probes ran inside a write transaction";
}

// A lost run's leftover group ignores SIGTERM, so ending it takes the whole grace period; all that
// time the store stays free for other writers.
TEST_F(EngineTest, ALostRunsGroupIsEndedOutsideAnyWriteTransaction) {
  const auto termed = dir_ + "/got-sigterm";
  submit(request(
      "lost", "(trap 'touch " + termed + "' TERM; while :; do sleep 0.1; done) & " + "sleep 0.3"));
  wait_state("lost", TaskState::Running);
  auto run = run_of("lost");
  ASSERT_TRUE(run);
  kill(static_cast<pid_t>(run->supervisor_pid), SIGKILL);
  reap_while([&] { return process_matches(static_cast<pid_t>(run->pid), run->start_ticks); });
  ASSERT_TRUE(group_alive(static_cast<pid_t>(run->pgid)));
  Result<int> scheduled = 0;
  std::thread pass([&] { scheduled = engine_->schedule(); });
  bool got_term = wait_for_file(termed, 10s);
  bool free_while_ending = write_lock_is_free(dir_ + "/cache.db");
  pass.join();
  ASSERT_TRUE(got_term);
  EXPECT_TRUE(free_while_ending);
  ASSERT_TRUE(scheduled.ok()) << scheduled.error().message;
  auto t = wait_done("lost");
  ASSERT_TRUE(t.execution_info.failure_info);
  EXPECT_EQ(t.execution_info.failure_info->code, "SupervisorLost");
  EXPECT_FALSE(group_alive(static_cast<pid_t>(run->pgid)));
}

}  // namespace
}  // namespace trainyard::test::engine_busy_store_test
