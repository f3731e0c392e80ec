#include <gtest/gtest.h>
#include <sqlite3.h>

#include <chrono>

#include "fixtures.hpp"

namespace trainyard::tasks_test {
namespace {

using testing::at_seconds;
using testing::bare_task;
using testing::full_task;

using StoreTasks = testing::StoreTest;

std::vector<std::string> ids(const Result<std::vector<Task>>& r) {
  EXPECT_TRUE(r.ok()) << r.error().message;
  std::vector<std::string> out;
  if (r.ok()) {
    for (const auto& t : *r) out.push_back(t.id);
  }
  return out;
}

TEST_F(StoreTasks, RecordsStateHistory) {
  Task t = bare_task("j", "t", TaskState::Active, 0);
  ASSERT_TRUE(store_->upsert_task(t).ok());
  ASSERT_TRUE(store_->upsert_task(t).ok());  // unchanged: no row
  t.state = TaskState::Running;
  t.state_transition_time = at_seconds(10);
  ASSERT_TRUE(store_->upsert_task(t).ok());
  t.state = TaskState::Completed;
  t.state_transition_time = at_seconds(20);
  ASSERT_TRUE(store_->upsert_task(t).ok());
  auto h = store_->state_history("acct", "j", "t");
  ASSERT_TRUE(h.ok()) << h.error().message;
  ASSERT_EQ(h->size(), 3u);
  EXPECT_EQ((*h)[0].from, TaskState::Active);
  EXPECT_EQ((*h)[0].to, TaskState::Active);
  EXPECT_EQ((*h)[0].at, at_seconds(0));  // creation time on insert
  EXPECT_EQ((*h)[1].from, TaskState::Active);
  EXPECT_EQ((*h)[1].to, TaskState::Running);
  EXPECT_EQ((*h)[1].at, at_seconds(10));
  EXPECT_EQ((*h)[2].from, TaskState::Running);
  EXPECT_EQ((*h)[2].to, TaskState::Completed);
  EXPECT_EQ((*h)[2].at, at_seconds(20));
}

TEST_F(StoreTasks, InsertUsesPreviousStateAsFrom) {
  Task t = full_task("t");  // completed, previously running
  ASSERT_TRUE(store_->upsert_task(t).ok());
  auto h = store_->state_history("acct", "job1", "t");
  ASSERT_TRUE(h.ok());
  ASSERT_EQ(h->size(), 1u);
  EXPECT_EQ((*h)[0].from, TaskState::Running);
  EXPECT_EQ((*h)[0].to, TaskState::Completed);
  EXPECT_EQ((*h)[0].at, at_seconds(100));
}

TEST_F(StoreTasks, HistoryWithoutTimesUsesNow) {
  Task t;
  t.account = "acct";
  t.job_id = "j";
  t.id = "t";
  auto before = std::chrono::system_clock::now();
  ASSERT_TRUE(store_->upsert_task(t).ok());
  auto h = store_->state_history("acct", "j", "t");
  ASSERT_TRUE(h.ok());
  ASSERT_EQ(h->size(), 1u);
  EXPECT_GE((*h)[0].at, std::chrono::time_point_cast<Duration>(before));
}

class StoreQuery : public testing::StoreTest {
 protected:
  void SetUp() override {
    StoreTest::SetUp();
    auto r = store_->write([&]() -> Result<void> {
      for (const auto& t : tasks_) {
        if (auto u = store_->upsert_task(t); !u) return u;
      }
      return ok_result();
    });
    ASSERT_TRUE(r.ok()) << r.error().message;
  }

  std::vector<Task> tasks_ = [] {
    std::vector<Task> v = {
        bare_task("j", "c-late", TaskState::Completed, 9),
        bare_task("j", "r-1", TaskState::Running, 5),
        bare_task("j", "a-2", TaskState::Active, 3),
        bare_task("j", "a-1", TaskState::Active, 3),  // same time: id breaks the tie
        bare_task("j", "p", TaskState::Preparing, 1),
        bare_task("j", "a-0", TaskState::Active, 7),
        bare_task("j", "c-early", TaskState::Completed, 2),
        bare_task("other", "x", TaskState::Running, 0),
    };
    v[0].display_name = "Final EVAL";
    v[1].command_line = "python train.py --lr 50%_off";
    v[2].display_name = "ab";
    return v;
  }();
};

TEST_F(StoreQuery, SortsByStateThenCreationThenId) {
  EXPECT_EQ(ids(store_->tasks({.account = "acct", .job = "j"})),
            (std::vector<std::string>{"a-1", "a-2", "a-0", "p", "r-1", "c-early", "c-late"}));
}

TEST_F(StoreQuery, AccountWideWhenJobEmpty) {
  EXPECT_EQ(ids(store_->tasks({.account = "acct", .state = TaskState::Running})),
            (std::vector<std::string>{"x", "r-1"}));
  EXPECT_EQ(*store_->count_tasks({.account = "acct"}), 8);
  EXPECT_EQ(*store_->count_tasks({.account = "nobody"}), 0);
}

TEST_F(StoreQuery, FiltersByStateWithLimitAndOffset) {
  TaskQuery q{.account = "acct", .job = "j", .state = TaskState::Active};
  EXPECT_EQ(ids(store_->tasks(q)), (std::vector<std::string>{"a-1", "a-2", "a-0"}));
  q.limit = 2;
  q.offset = 1;
  EXPECT_EQ(ids(store_->tasks(q)), (std::vector<std::string>{"a-2", "a-0"}));
  EXPECT_EQ(*store_->count_tasks(q), 3);  // limit/offset ignored
  q.state = TaskState::Completed;
  q.limit = 1;
  q.offset = 0;
  EXPECT_EQ(ids(store_->tasks(q)), (std::vector<std::string>{"c-early"}));
}

TEST_F(StoreQuery, SubstringIsCaseInsensitiveOverIdNameAndCommand) {
  auto find = [&](const std::string& s) {
    return ids(store_->tasks({.account = "acct", .job = "j", .substring = s}));
  };
  EXPECT_EQ(find("eval"), (std::vector<std::string>{"c-late"}));   // displayName
  EXPECT_EQ(find("TRAIN.PY"), (std::vector<std::string>{"r-1"}));  // commandLine
  EXPECT_EQ(find("C-EA"), (std::vector<std::string>{"c-early"}));  // id
  EXPECT_EQ(find("AB"), (std::vector<std::string>{"a-2"}));
  EXPECT_EQ(find("a-"), (std::vector<std::string>{"a-1", "a-2", "a-0"}));
  EXPECT_EQ(find("%_"), (std::vector<std::string>{"r-1"}));  // wildcards literal
  EXPECT_EQ(find("0%_off"), (std::vector<std::string>{"r-1"}));
  EXPECT_EQ(find("\"x OR y\""), std::vector<std::string>{});  // no query syntax
  EXPECT_EQ(find("_"), (std::vector<std::string>{"r-1"}));
  EXPECT_TRUE(find("zzz").empty());
  EXPECT_EQ(*store_->count_tasks({.account = "acct", .job = "j", .substring = "c-"}), 2);
  EXPECT_EQ(ids(store_->tasks({.account = "acct",
                               .job = "j",
                               .state = TaskState::Active,
                               .substring = "a-",
                               .limit = 1})),
            (std::vector<std::string>{"a-1"}));
}

TEST_F(StoreQuery, SubstringFollowsRenames) {
  Task t = tasks_[0];
  t.display_name = "renamed";
  ASSERT_TRUE(store_->upsert_task(t).ok());
  EXPECT_EQ(*store_->count_tasks({.account = "acct", .substring = "eval"}), 0);
  EXPECT_EQ(*store_->count_tasks({.account = "acct", .substring = "RENAMED"}), 1);
}

TEST_F(StoreQuery, CountsByState) {
  auto c = store_->task_counts("acct", "j");
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ((*c)[TaskState::Active], 3);
  EXPECT_EQ((*c)[TaskState::Preparing], 1);
  EXPECT_EQ((*c)[TaskState::Running], 1);
  EXPECT_EQ((*c)[TaskState::Completed], 2);
  auto all = store_->task_counts("acct", "");
  ASSERT_TRUE(all.ok());
  EXPECT_EQ((*all)[TaskState::Running], 2);
  auto none = store_->task_counts("acct", "missing");
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->size(), 4u);
  EXPECT_EQ(none->at(TaskState::Active), 0);
}

TEST_F(StoreTasks, DeleteTaskRemovesDependents) {
  for (const char* id : {"t1", "t2"}) {
    ASSERT_TRUE(store_->upsert_task(full_task(id)).ok());
    ASSERT_TRUE(store_->set_task_files("acct", "job1", id, {{"stdout.txt", 1, false, {}}}).ok());
    ASSERT_TRUE(store_->set_log_offset("acct", "job1", id, "stdout.txt", 10).ok());
    ASSERT_TRUE(store_->add_metric_points("acct", "job1", id, {{"loss", 1, 1, {}}}).ok());
  }
  ASSERT_TRUE(store_->delete_task("acct", "job1", "t1").ok());
  EXPECT_FALSE(store_->task("acct", "job1", "t1")->has_value());
  EXPECT_TRUE(store_->task_files("acct", "job1", "t1")->empty());
  EXPECT_EQ(*store_->log_offset("acct", "job1", "t1", "stdout.txt"), 0);
  EXPECT_TRUE(store_->metric_names("acct", "job1", "t1")->empty());
  EXPECT_TRUE(store_->metric_points("acct", "job1", "t1", "loss")->empty());
  EXPECT_TRUE(store_->state_history("acct", "job1", "t1")->empty());
  EXPECT_EQ(*store_->count_tasks({.account = "acct", .substring = "t1"}), 0);
  // The sibling is intact, lists included.
  auto t2 = store_->task("acct", "job1", "t2");
  ASSERT_TRUE(t2.ok() && t2->has_value());
  EXPECT_EQ((*t2)->environment_settings.size(), 3u);
  EXPECT_EQ(store_->metric_points("acct", "job1", "t2", "loss")->size(), 1u);
  // A re-created task starts with empty lists.
  ASSERT_TRUE(store_->upsert_task(bare_task("job1", "t1", TaskState::Active, 0)).ok());
  EXPECT_TRUE((*store_->task("acct", "job1", "t1"))->environment_settings.empty());
}

TEST_F(StoreTasks, DeleteJobRemovesTasksAndDependents) {
  ASSERT_TRUE(store_->upsert_job({.account = "acct", .id = "job1", .metadata = {{"k", "v"}}}).ok());
  ASSERT_TRUE(store_->upsert_job({.account = "acct", .id = "job2"}).ok());
  ASSERT_TRUE(store_->upsert_task(full_task("t1")).ok());
  ASSERT_TRUE(store_->set_task_files("acct", "job1", "t1", {{"stdout.txt", 1, false, {}}}).ok());
  ASSERT_TRUE(store_->set_log_offset("acct", "job1", "t1", "stdout.txt", 10).ok());
  ASSERT_TRUE(store_->add_metric_points("acct", "job1", "t1", {{"loss", 1, 1, {}}}).ok());
  ASSERT_TRUE(store_->upsert_task(bare_task("job2", "t1", TaskState::Active, 0)).ok());
  ASSERT_TRUE(store_->delete_job("acct", "job1").ok());
  EXPECT_FALSE(store_->job("acct", "job1")->has_value());
  EXPECT_EQ(*store_->count_tasks({.account = "acct", .job = "job1"}), 0);
  EXPECT_TRUE(store_->task_files("acct", "job1", "t1")->empty());
  EXPECT_EQ(*store_->log_offset("acct", "job1", "t1", "stdout.txt"), 0);
  EXPECT_TRUE(store_->metric_names("acct", "job1", "t1")->empty());
  EXPECT_TRUE(store_->state_history("acct", "job1", "t1")->empty());
  // Nothing left behind in the list tables either.
  for (const char* sql : {"SELECT count(*) FROM job_metadata", "SELECT count(*) FROM task_env",
                          "SELECT count(*) FROM task_deps", "SELECT count(*) FROM metric_points"}) {
    sqlite3_stmt* s = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(store_->handle(), sql, -1, &s, nullptr), SQLITE_OK);
    ASSERT_EQ(sqlite3_step(s), SQLITE_ROW);
    EXPECT_EQ(sqlite3_column_int(s, 0), 0) << sql;
    sqlite3_finalize(s);
  }
  EXPECT_EQ(*store_->count_tasks({.account = "acct", .job = "job2"}), 1);
  EXPECT_TRUE(store_->job("acct", "job2")->has_value());
}

}  // namespace
}  // namespace trainyard::tasks_test
