#include "task_timeline.hpp"

#include <gtest/gtest.h>

namespace trainyard::task_timeline_test {
namespace {

Timestamp at(int h, int m, int s) {
  return Timestamp(
      std::chrono::seconds(1'709'251'200 + h * 3600 + m * 60 + s));  // 2024-03-01T00:00:00Z
}

// Queued, started, retried once, requeued after a preemption, started again, failed.
std::vector<StateChange> life() {
  using S = TaskState;
  return {{S::Active, S::Active, at(10, 0, 0), 0, 0},
          {S::Active, S::Running, at(10, 1, 0), 0, 0},
          {S::Running, S::Running, at(10, 5, 0), 1, 0},
          {S::Running, S::Active, at(10, 7, 30), 1, 1},
          {S::Active, S::Running, at(10, 8, 0), 1, 1},
          {S::Running, S::Completed, at(10, 20, 0), 1, 1}};
}

TEST(TaskTimeline, EventsNameRetriesAndRequeues) {
  auto e = timeline_events(life(), TaskResult::Failure);
  std::vector<std::string> labels;
  for (const auto& x : e) labels.push_back(x.label);
  EXPECT_EQ(labels, (std::vector<std::string>{"queued", "started", "retried (1)", "requeued (1)",
                                              "started", "failed"}));
  EXPECT_EQ(e[3].at, at(10, 7, 30));
  EXPECT_EQ(timeline_events(life(), std::nullopt).back().label, "completed");
}

// Parts are 15, 16, 20, 21, 16 and 15 columns, joined by 3 (` → `): 80 columns hold the first
// three (57; a fourth would make 81), the rest go on a line that starts with `→`.
TEST(TaskTimeline, LinesWrapAtTheWidth) {
  auto lines = timeline_lines(timeline_events(life(), TaskResult::Failure), 80, 2);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "10:00:00 queued → 10:01:00 started → 10:05:00 retried (1)");
  EXPECT_EQ(lines[1], "→ 10:07:30 requeued (1) → 10:08:00 started → 10:20:00 failed");
}

// At 40 columns two lines hold only the last three events: the first line says what is left out.
TEST(TaskTimeline, TheEarliestGoWhenTheyDoNotFit) {
  auto lines = timeline_lines(timeline_events(life(), TaskResult::Failure), 40, 2);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "+3 earlier → 10:07:30 requeued (1)");
  EXPECT_EQ(lines[1], "→ 10:08:00 started → 10:20:00 failed");
}

}  // namespace
}  // namespace trainyard::task_timeline_test
