// Task lists ordered by a column and narrowed by conditions (the TUI's sort and filter).
#include <gtest/gtest.h>

#include "fixtures.hpp"

namespace trainyard::task_order_test {
namespace {

using testing::bare_task;
using C = TaskCondition;

class StoreOrder : public testing::StoreTest {
 protected:
  void SetUp() override {
    StoreTest::SetUp();
    // Display order: t5 (active), t3 (running), t1, t2, t4 (completed, by creation time).
    std::vector<Task> v = {
        bare_task("j", "t1", TaskState::Completed, 1),
        bare_task("j", "t2", TaskState::Completed, 2), bare_task("j", "t3", TaskState::Running, 3),
        bare_task("j", "t4", TaskState::Completed, 4), bare_task("j", "t5", TaskState::Active, 5)};
    v[0].execution_info.exit_code = 0;
    v[0].execution_info.result = TaskResult::Success;
    v[0].execution_info.retry_count = 1;
    v[1].execution_info.exit_code = 3;
    v[1].execution_info.result = TaskResult::Failure;
    v[2].execution_info.retry_count = 2;
    v[3].execution_info.result = TaskResult::Failure;
    v[3].execution_info.failure_info = FailureInfo{ErrorCategory::UserError, "ContainerFailed", ""};
    for (const auto& t : v) ASSERT_TRUE(store_->upsert_task(t).ok());
  }

  std::vector<std::string> list(TaskQuery q) {
    q.account = "acct";
    q.job = "j";
    auto r = store_->tasks(q);
    EXPECT_TRUE(r.ok()) << r.error().message;
    std::vector<std::string> out;
    if (r.ok())
      for (const auto& t : *r) out.push_back(t.id);
    return out;
  }
  /// The stored task `id` (a keyset page starts from a row the list returned).
  Task stored(const std::string& id) {
    auto t = store_->task("acct", "j", id);
    EXPECT_TRUE(t && *t) << id;
    return t && *t ? **t : Task{};
  }
  TaskQuery after(const std::string& id, TaskQuery q, bool backward = false) {
    q.seek = TaskSeek{stored(id), backward};
    return q;
  }
  int64_t count(TaskQuery q) {
    q.account = "acct";
    q.job = "j";
    return store_->count_tasks(q).value_or(-1);
  }
};

using Ids = std::vector<std::string>;

TEST_F(StoreOrder, ByExitCodeWithNoCodeFirstAndIdBreakingTies) {
  EXPECT_EQ(list({.order = TaskOrder::ExitCode}), (Ids{"t3", "t4", "t5", "t1", "t2"}));
  EXPECT_EQ(list({.order = TaskOrder::ExitCode, .descending = true}),
            (Ids{"t2", "t1", "t5", "t4", "t3"}));
}

TEST_F(StoreOrder, ByRetriesDescendingThenOffset) {
  EXPECT_EQ(list({.order = TaskOrder::Retries, .descending = true}),
            (Ids{"t3", "t1", "t5", "t4", "t2"}));
  EXPECT_EQ(list({.order = TaskOrder::Retries, .descending = true, .limit = 2, .offset = 2}),
            (Ids{"t5", "t4"}));
}

TEST_F(StoreOrder, FailedAndStateRank) {
  EXPECT_EQ(list({.conditions = {{C::Field::Failed}}}), (Ids{"t2", "t4"}));
  EXPECT_EQ(list({.conditions = {{C::Field::Failed, C::Cmp::Eq, 0, "", true}}}),
            (Ids{"t5", "t3", "t1"}));
  EXPECT_EQ(list({.conditions = {{C::Field::StateRank, C::Cmp::Ne, 3}}}), (Ids{"t5", "t3"}));
  EXPECT_EQ(count({.conditions = {{C::Field::StateRank, C::Cmp::Lt, 3}}}), 2);
}

TEST_F(StoreOrder, ExitCodeComparisons) {
  // Not 0: the exit code 3 and the failure code; a task with neither has no exit to compare.
  EXPECT_EQ(list({.conditions = {{C::Field::ExitCode, C::Cmp::Ne, 0}}}), (Ids{"t2", "t4"}));
  EXPECT_EQ(list({.conditions = {{C::Field::ExitCode, C::Cmp::Eq, 0}}}), (Ids{"t1"}));
  EXPECT_EQ(list({.conditions = {{C::Field::ExitCode, C::Cmp::Gt, 1}}}), (Ids{"t2"}));
  // `!exit:0` keeps the tasks with no exit code.
  EXPECT_EQ(list({.conditions = {{C::Field::ExitCode, C::Cmp::Eq, 0, "", true}}}),
            (Ids{"t5", "t3", "t2", "t4"}));
}

TEST_F(StoreOrder, TextConditionsAndSubstringTogether) {
  EXPECT_EQ(list({.conditions = {{C::Field::Text, C::Cmp::Eq, 0, "T1", true}}}),
            (Ids{"t5", "t3", "t2", "t4"}));
  EXPECT_EQ(count({.substring = "t",
                   .conditions = {{C::Field::Text, C::Cmp::Eq, 0, "t1", true},
                                  {C::Field::StateRank, C::Cmp::Eq, 3}}}),
            2);
}

TEST_F(StoreOrder, KeysetPagesInTheDisplayOrder) {
  // t5, t3, t1, t2, t4
  EXPECT_EQ(list(after("t3", {.limit = 2})), (Ids{"t1", "t2"}));
  EXPECT_EQ(list(after("t2", {.limit = 2}, true)), (Ids{"t3", "t1"}));
  EXPECT_EQ(list(after("t5", {.limit = 9}, true)), Ids{});
  EXPECT_EQ(list({.from_end = true, .limit = 2}), (Ids{"t2", "t4"}));
  EXPECT_EQ(list(after("t1", {.conditions = {{C::Field::StateRank, C::Cmp::Eq, 3}}, .limit = 5})),
            (Ids{"t2", "t4"}));
}

TEST_F(StoreOrder, KeysetPagesByANullableColumnBothWays) {
  // Ascending: t3, t4, t5 (no exit code), t1 (0), t2 (3).
  TaskQuery asc{.order = TaskOrder::ExitCode, .limit = 2};
  EXPECT_EQ(list(after("t4", asc)), (Ids{"t5", "t1"}));
  EXPECT_EQ(list(after("t1", asc, true)), (Ids{"t4", "t5"}));
  EXPECT_EQ(list(after("t4", asc, true)), (Ids{"t3"}));
  // Descending: t2, t1, t5, t4, t3.
  TaskQuery desc{.order = TaskOrder::ExitCode, .descending = true, .limit = 5};
  EXPECT_EQ(list(after("t1", desc)), (Ids{"t5", "t4", "t3"}));
  EXPECT_EQ(list(after("t5", desc, true)), (Ids{"t2", "t1"}));
  EXPECT_EQ(list(after("t4", desc)), (Ids{"t3"}));
  desc.from_end = true;
  desc.limit = 2;
  EXPECT_EQ(list(desc), (Ids{"t4", "t3"}));
}

TEST_F(StoreOrder, KeysetPagesByRetriesDescending) {
  // t3 (2), t1 (1), then 0 by id descending: t5, t4, t2.
  TaskQuery q{.order = TaskOrder::Retries, .descending = true, .limit = 2};
  EXPECT_EQ(list(after("t1", q)), (Ids{"t5", "t4"}));
  q.limit = 1;
  EXPECT_EQ(list(after("t5", q, true)), (Ids{"t1"}));
}

}  // namespace
}  // namespace trainyard::task_order_test
