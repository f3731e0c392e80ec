// The runs a task is billed for, read from what the cache holds of it: its current attempt and the
// stretches its state history shows it running before.
#include <gtest/gtest.h>

#include "cost_report.hpp"

namespace trainyard::cost_report_test {
namespace {

Timestamp at(int hh, int mm) {
  return parse_iso8601(std::string("2026-11-20T") + (hh < 10 ? "0" : "") + std::to_string(hh) +
                       ":" + (mm < 10 ? "0" : "") + std::to_string(mm) + ":00Z")
      .value();
}

Task running_since(Timestamp start, int slots = 1) {
  Task t;
  t.state = TaskState::Running;
  t.required_slots = slots;
  t.execution_info.start_time = start;
  return t;
}

StateChange change(TaskState from, TaskState to, Timestamp when, int retries = 0,
                   int requeues = 0) {
  return {from, to, when, retries, requeues};
}

TEST(TaskRuns, ARunningTaskRunsUntilNow) {
  auto t = running_since(at(10, 0), 2);
  auto runs = task_runs(t, {change(TaskState::Active, TaskState::Running, at(10, 0))}, false);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].start, at(10, 0));
  EXPECT_FALSE(runs[0].end.has_value());
  EXPECT_FALSE(runs[0].on_spot);
  EXPECT_EQ(runs[0].required_slots, 2);
  // 30 minutes on a 1.0/hour node, 2 of 4 slots: 0.25.
  EXPECT_NEAR(runs_cost(runs, {1.0, 0.5}, 4, at(10, 30)).value(), 0.25, 1e-12);
}

TEST(TaskRuns, ARetriedAttemptIsARunOfItsOwn) {
  // Failed at 10:20 and retried at once on the same (dedicated) node.
  auto t = running_since(at(10, 20));
  t.execution_info.retry_count = 1;
  auto runs = task_runs(t,
                        {change(TaskState::Active, TaskState::Running, at(10, 0)),
                         change(TaskState::Running, TaskState::Running, at(10, 20), 1)},
                        false);
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].start, at(10, 0));
  EXPECT_EQ(runs[0].end, std::optional(at(10, 20)));
  EXPECT_FALSE(runs[0].on_spot);
  EXPECT_EQ(runs[1].start, at(10, 20));
}

TEST(TaskRuns, AStretchEndedByARequeueRanOnSpot) {
  auto t = running_since(at(9, 30));
  t.state = TaskState::Completed;
  t.execution_info.end_time = at(10, 30);
  t.execution_info.requeue_count = 1;
  auto runs = task_runs(t,
                        {change(TaskState::Active, TaskState::Running, at(9, 0)),
                         change(TaskState::Running, TaskState::Active, at(9, 20), 0, 1),
                         change(TaskState::Active, TaskState::Running, at(9, 30), 0, 1),
                         change(TaskState::Running, TaskState::Completed, at(10, 30), 0, 1)},
                        false);
  // The completing change ends the current attempt, counted once.
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_TRUE(runs[0].on_spot);
  EXPECT_EQ(runs[0].end, std::optional(at(9, 20)));
  EXPECT_FALSE(runs[1].on_spot);  // the rerun is on a dedicated node
  EXPECT_EQ(runs[1].start, at(9, 30));
  EXPECT_EQ(runs[1].end, std::optional(at(10, 30)));
}

TEST(TaskRuns, AWaitingTaskHasNone) {
  Task t;
  EXPECT_TRUE(
      task_runs(t, {change(TaskState::Active, TaskState::Active, at(9, 0))}, false).empty());
}

TEST(TaskRuns, EachInstanceOfAMultiInstanceTaskHoldsANode) {
  auto t = running_since(at(10, 0));
  t.state = TaskState::Completed;
  t.execution_info.end_time = at(11, 0);
  t.multi_instance = MultiInstanceSettings{3, ""};
  auto runs = task_runs(t, {}, false);
  ASSERT_EQ(runs.size(), 3u);
  // 3 nodes for an hour at 2.0/hour, each whole although the node has 4 slots: 6.0.
  EXPECT_NEAR(runs_cost(runs, {2.0, 1.0}, 4, at(12, 0)).value(), 6.0, 1e-12);
}

}  // namespace
}  // namespace trainyard::cost_report_test
