// A page of tasks written in a few multi-row statements: every field stored as given, changes
// between two pages, older snapshots and unchanged eTags kept, deletions gone.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstring>
#include <map>

#include "fixtures.hpp"

namespace trainyard::task_batch_test {
namespace {

using testing::at_seconds;
using StoreTaskBatch = testing::StoreTest;

// 203 tasks: three statements of 64 rows, one of 8 and three of 1.
constexpr int kTasks = 203;

std::string task_id(int i) {
  return "t-" + std::to_string(1000 + i);
}

// Task i of the first page, its optional parts set by i's remainders so the page mixes them.
Task varied_task(int i) {
  Task t;
  t.account = "acct";
  t.job_id = "job1";
  t.id = task_id(i);
  t.display_name = i % 2 ? "epoch sweep " + std::to_string(i) : "";
  t.command_line = "python train.py --seed " + std::to_string(i);
  t.state =
      i % 3 == 0 ? TaskState::Completed : (i % 3 == 1 ? TaskState::Running : TaskState::Active);
  t.creation_time = at_seconds(i);
  if (i % 4 != 3) t.state_transition_time = at_seconds(100 + i);
  if (i % 3 == 0) t.previous_state = TaskState::Running;
  for (int k = 0; k < i % 3; ++k)
    t.environment_settings.push_back({"VAR" + std::to_string(k), "v" + std::to_string(i)});
  for (int k = 0; k < i % 4; ++k) t.depends_on.task_ids.push_back(task_id(k));
  if (i % 5 == 0) t.constraints.max_wall_clock_time = Duration(int64_t{60'000'000} * (i + 1));
  t.constraints.max_task_retry_count = i % 7 == 0 ? -1 : i % 3;
  t.required_slots = 1 + i % 2;
  auto& e = t.execution_info;
  if (i % 3 != 2) e.start_time = at_seconds(50 + i);
  if (i % 3 == 0) {
    e.end_time = at_seconds(90 + i);
    e.exit_code = i % 6 == 0 ? 1 : 0;
    e.result = i % 6 == 0 ? TaskResult::Failure : TaskResult::Success;
  }
  if (i % 6 == 0) e.failure_info = FailureInfo{ErrorCategory::UserError, "FailureExitCode", "1"};
  e.retry_count = i % 3;
  if (i % 9 == 0) e.last_retry_time = at_seconds(70 + i);
  e.requeue_count = i % 8 == 0 ? 1 : 0;
  if (i % 3 != 2)
    t.node_info = TaskNodeInfo{"pool1", "node-" + std::to_string(i % 4), "/d/" + t.id};
  if (i % 10 == 0) t.multi_instance = MultiInstanceSettings{2 + i % 3, "setup.sh"};
  if (i % 7 == 0) t.resource_files = {{"https://x/a.py", "", "", "", "a.py", "0755", ""}};
  if (i % 11 == 0)
    t.output_files = {{"*.log", "https://x/c", "logs", "", {{"h", "v"}}, "taskcompletion"}};
  if (i % 13 != 12) t.last_modified = at_seconds(200 + i);
  t.etag = i % 13 == 12 ? "" : "0x" + std::to_string(i);
  return t;
}

// The second page's version of a task that changed: a later state and time, a new eTag, other
// lists and another name.
Task changed(Task t) {
  t.state = TaskState::Completed;
  t.previous_state = TaskState::Running;
  t.state_transition_time = at_seconds(5000);
  t.display_name = "renamed zebra " + t.id;
  t.environment_settings = {{"ONLY", "one"}};
  t.depends_on.task_ids = {};
  t.execution_info.end_time = at_seconds(4999);
  t.execution_info.exit_code = 0;
  t.execution_info.result = TaskResult::Success;
  t.node_info.reset();
  t.last_modified = at_seconds(6000);
  t.etag = "0xchanged-" + t.id;
  return t;
}

void expect_same(const Task& got, const Task& want) {
  SCOPED_TRACE(want.id);
  EXPECT_EQ(got.account, want.account);
  EXPECT_EQ(got.job_id, want.job_id);
  EXPECT_EQ(got.id, want.id);
  EXPECT_EQ(got.display_name, want.display_name);
  EXPECT_EQ(got.command_line, want.command_line);
  EXPECT_EQ(got.state, want.state);
  EXPECT_EQ(got.creation_time, want.creation_time);
  EXPECT_EQ(got.state_transition_time, want.state_transition_time);
  EXPECT_EQ(got.previous_state, want.previous_state);
  EXPECT_EQ(got.environment_settings, want.environment_settings);
  EXPECT_EQ(got.resource_files, want.resource_files);
  EXPECT_EQ(got.output_files, want.output_files);
  EXPECT_EQ(got.constraints.max_wall_clock_time, want.constraints.max_wall_clock_time);
  EXPECT_EQ(got.constraints.max_task_retry_count, want.constraints.max_task_retry_count);
  EXPECT_EQ(got.depends_on.task_ids, want.depends_on.task_ids);
  EXPECT_EQ(got.required_slots, want.required_slots);
  const auto& g = got.execution_info;
  const auto& w = want.execution_info;
  EXPECT_EQ(g.start_time, w.start_time);
  EXPECT_EQ(g.end_time, w.end_time);
  EXPECT_EQ(g.exit_code, w.exit_code);
  EXPECT_EQ(g.result, w.result);
  ASSERT_EQ(g.failure_info.has_value(), w.failure_info.has_value());
  if (w.failure_info) {
    EXPECT_EQ(g.failure_info->category, w.failure_info->category);
    EXPECT_EQ(g.failure_info->code, w.failure_info->code);
    EXPECT_EQ(g.failure_info->message, w.failure_info->message);
  }
  EXPECT_EQ(g.retry_count, w.retry_count);
  EXPECT_EQ(g.last_retry_time, w.last_retry_time);
  EXPECT_EQ(g.requeue_count, w.requeue_count);
  ASSERT_EQ(got.node_info.has_value(), want.node_info.has_value());
  if (want.node_info) {
    EXPECT_EQ(got.node_info->pool_id, want.node_info->pool_id);
    EXPECT_EQ(got.node_info->node_id, want.node_info->node_id);
    EXPECT_EQ(got.node_info->task_root_directory, want.node_info->task_root_directory);
  }
  EXPECT_EQ(got.multi_instance, want.multi_instance);
  EXPECT_EQ(got.last_modified, want.last_modified);
  EXPECT_EQ(got.etag, want.etag);
}

std::vector<Task> first_page() {
  std::vector<Task> page;
  for (int i = 0; i < kTasks; ++i) page.push_back(varied_task(i));
  return page;
}

// Counts the statements a connection starts. Unlike tests/app's StatementCounter it leaves out
// the trigger runs SQLite also traces ("-- TRIGGER …"): every inserted task fires one.
class StatementCounter {
 public:
  explicit StatementCounter(sqlite3* db) : db_(db) {
    sqlite3_trace_v2(db_, SQLITE_TRACE_STMT, &StatementCounter::on_statement, this);
  }
  ~StatementCounter() { sqlite3_trace_v2(db_, 0, nullptr, nullptr); }
  int count() const { return count_; }

 private:
  static int on_statement(unsigned, void* self, void*, void* sql) {
    if (std::strncmp(static_cast<const char*>(sql), "--", 2) != 0)
      ++static_cast<StatementCounter*>(self)->count_;
    return 0;
  }
  sqlite3* db_;
  int count_ = 0;
};

TEST_F(StoreTaskBatch, EveryFieldOfAPageIsStoredAsGiven) {
  auto page = first_page();
  ASSERT_TRUE(store_->upsert_tasks(page).ok());
  for (int i = 0; i < kTasks; ++i) {
    auto got = store_->task("acct", "job1", task_id(i));
    ASSERT_TRUE(got.ok() && got->has_value()) << task_id(i);
    expect_same(**got, varied_task(i));
    auto h = store_->state_history("acct", "job1", task_id(i));
    ASSERT_TRUE(h.ok());
    ASSERT_EQ(h->size(), 1u) << task_id(i);
    // A new task's history starts at its previous state (or its own), at its transition time,
    // else its creation time.
    EXPECT_EQ((*h)[0].from, i % 3 == 0 ? TaskState::Running : varied_task(i).state);
    EXPECT_EQ((*h)[0].to, varied_task(i).state);
    EXPECT_EQ((*h)[0].at, i % 4 != 3 ? at_seconds(100 + i) : at_seconds(i));
  }
}

// The second page: i % 10 == 1 changed; == 2 deleted from the service (pruned); == 3 an older
// snapshot (earlier lastModified) that must not undo the stored row; == 4 the same eTag with
// other content (the same version: nothing is written); the rest as before; and 20 new tasks.
TEST_F(StoreTaskBatch, ASecondPageWritesWhatChangedAndKeepsTheRest) {
  ASSERT_TRUE(store_->upsert_tasks(first_page()).ok());
  std::vector<Task> second;
  std::map<std::string, Task> want;
  for (int i = 0; i < kTasks + 20; ++i) {
    Task t = varied_task(i);
    if (i >= kTasks || i % 10 == 0 || i % 10 > 4) {
      second.push_back(t);
      want[t.id] = t;
    } else if (i % 10 == 1) {
      second.push_back(changed(t));
      want[t.id] = changed(t);
    } else if (i % 10 == 3 && t.last_modified) {
      Task older = changed(t);
      older.last_modified = at_seconds(1);
      second.push_back(older);
      want[t.id] = t;
    } else if (i % 10 == 4 && !t.etag.empty()) {
      Task same_version = t;
      same_version.display_name = "not written";
      second.push_back(same_version);
      want[t.id] = t;
    } else if (i % 10 != 2) {
      second.push_back(t);
      want[t.id] = t;
    }
  }
  ASSERT_TRUE(store_->upsert_tasks(second).ok());
  for (int i = 2; i < kTasks; i += 10)
    ASSERT_TRUE(store_->delete_task("acct", "job1", task_id(i)).ok());

  auto ids = store_->task_ids("acct", "job1");
  ASSERT_TRUE(ids.ok());
  EXPECT_EQ(ids->size(), want.size());
  for (const auto& [id, w] : want) {
    auto got = store_->task("acct", "job1", id);
    ASSERT_TRUE(got.ok() && got->has_value()) << id;
    expect_same(**got, w);
  }
  // A changed task's state change is in its history; the others have their first row only.
  auto h = store_->state_history("acct", "job1", task_id(11));  // active, then completed
  ASSERT_TRUE(h.ok());
  ASSERT_EQ(h->size(), 2u);
  EXPECT_EQ((*h)[1].from, TaskState::Active);
  EXPECT_EQ((*h)[1].to, TaskState::Completed);
  EXPECT_EQ((*h)[1].at, at_seconds(5000));
  auto kept = store_->state_history("acct", "job1", task_id(13));
  ASSERT_TRUE(kept.ok());
  EXPECT_EQ(kept->size(), 1u);
  EXPECT_TRUE(store_->state_history("acct", "job1", task_id(12))->empty());
  // A task new in the second page (inserted, not upserted) has its first row, like the others.
  auto added = store_->state_history("acct", "job1", task_id(kTasks + 5));
  ASSERT_TRUE(added.ok());
  ASSERT_EQ(added->size(), 1u);
  EXPECT_EQ((*added)[0].to, want[task_id(kTasks + 5)].state);
  // The renamed tasks are found by their new name (the substring index followed).
  TaskQuery q;
  q.account = "acct";
  q.job = "job1";
  q.substring = "zebra";
  auto found = store_->count_tasks(q);
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(*found, 21);  // i = 1, 11, …, 201
}

TEST_F(StoreTaskBatch, AnUnchangedETagWritesNothing) {
  Task t = varied_task(1);
  ASSERT_TRUE(store_->upsert_task(t).ok());
  const int before = sqlite3_total_changes(store_->handle());
  ASSERT_TRUE(store_->upsert_task(t).ok());
  EXPECT_EQ(sqlite3_total_changes(store_->handle()), before);
}

TEST_F(StoreTaskBatch, APageTakesAFewStatementsNotSeveralPerTask) {
  std::vector<Task> page;
  for (int i = 0; i < 1000; ++i) {
    Task t = varied_task(i);
    t.id = "p-" + std::to_string(i);
    page.push_back(t);
  }
  StatementCounter counter(store_->handle());
  ASSERT_TRUE(store_->upsert_tasks(page).ok());
  // 1,000 tasks with about 1,000 environment settings and 1,500 dependencies: the per-task
  // writer ran more than 5,000 statements; in rows of 64 it is about 130.
  EXPECT_LT(counter.count(), 200);
}

}  // namespace
}  // namespace trainyard::task_batch_test
