#include <gtest/gtest.h>

#include <chrono>

#include "fixtures.hpp"

namespace trainyard::bulk_test {
namespace {

using testing::at_seconds;

using StoreBulk = testing::StoreTest;

constexpr int kTasks = 100'000;

TaskState state_of(int i) {
  return static_cast<TaskState>(i % 4);
}

Task make(int i) {
  Task t;
  t.account = "acct";
  t.job_id = "sweep";
  t.id = "task-" + std::to_string(i);
  t.display_name = i % 1000 == 0 ? "Checkpoint Eval " + std::to_string(i) : "";
  t.command_line = "python train.py --seed " + std::to_string(i);
  t.state = state_of(i);
  t.creation_time = at_seconds(kTasks - i);  // newest first by index
  return t;
}

TEST_F(StoreBulk, HundredThousandTasksInOneWrite) {
  auto start = std::chrono::steady_clock::now();
  auto r = store_->write([&]() -> Result<void> {
    for (int i = 0; i < kTasks; ++i) {
      if (auto u = store_->upsert_task(make(i)); !u) return u;
    }
    return ok_result();
  });
  ASSERT_TRUE(r.ok()) << r.error().message;
  auto inserted = std::chrono::steady_clock::now();

  auto counts = store_->task_counts("acct", "sweep");
  ASSERT_TRUE(counts.ok());
  for (auto s :
       {TaskState::Active, TaskState::Preparing, TaskState::Running, TaskState::Completed}) {
    EXPECT_EQ(counts->at(s), kTasks / 4);
  }
  EXPECT_EQ(*store_->count_tasks({.account = "acct", .job = "sweep"}), kTasks);
  // "eval" is only in the display names of every 1000th task (all Active: i % 4 == 0).
  EXPECT_EQ(*store_->count_tasks({.account = "acct", .job = "sweep", .substring = "EVAL"}),
            kTasks / 1000);
  // "seed 1234" matches seeds 1234 and 12340..12349: 11 tasks.
  EXPECT_EQ(*store_->count_tasks({.account = "acct", .job = "sweep", .substring = "seed 1234"}),
            1 + 10);
  // "-9": ids task-9… (LIKE path, 2 characters): 1 + 10 + 100 + 1000 + 10000.
  EXPECT_EQ(*store_->count_tasks({.account = "acct", .job = "sweep", .substring = "-9"}), 11111);
  // Every plan of the substring filter gives the same answer as counting by hand:
  // "seed 12" (1 + 10 + 100 + 1000 matches: the 256-20,000 plan), "seed 1" (11,111: the same),
  // "train" (every task: the dense plan), "seed 9999" (11: the sparse plan).
  for (auto [needle, expected] : {std::pair{"seed 12", 1111},
                                  {"seed 1", 11111},
                                  {"train", kTasks},
                                  {"seed 9999", 11},
                                  {"SEED 5", 11111}}) {
    EXPECT_EQ(*store_->count_tasks({.account = "acct", .job = "sweep", .substring = needle}),
              expected)
        << needle;
    auto first = store_->tasks(
        {.account = "acct", .job = "sweep", .substring = needle, .limit = 5, .offset = 3});
    ASSERT_TRUE(first.ok());
    EXPECT_EQ(first->size(), std::min<size_t>(5, static_cast<size_t>(expected) - 3)) << needle;
    for (const auto& t : *first) EXPECT_NE(t.command_line.find("seed"), std::string::npos);
  }
  auto page = store_->tasks(
      {.account = "acct", .job = "sweep", .state = TaskState::Running, .limit = 3, .offset = 10});
  ASSERT_TRUE(page.ok()) << page.error().message;
  ASSERT_EQ(page->size(), 3u);
  // Running tasks are i % 4 == 2; oldest (highest i) first: 99998, 99994, …
  EXPECT_EQ((*page)[0].id, "task-" + std::to_string(99998 - 4 * 10));
  EXPECT_EQ((*page)[2].id, "task-" + std::to_string(99998 - 4 * 12));
  auto evals = store_->tasks({.account = "acct", .job = "sweep", .substring = "eval", .limit = 2});
  ASSERT_TRUE(evals.ok());
  ASSERT_EQ(evals->size(), 2u);
  EXPECT_EQ((*evals)[0].id, "task-99000");
  auto done = std::chrono::steady_clock::now();
  auto ms = [](auto d) { return std::chrono::duration_cast<std::chrono::milliseconds>(d).count(); };
  std::printf("insert %lld ms, queries %lld ms\n", static_cast<long long>(ms(inserted - start)),
              static_cast<long long>(ms(done - inserted)));
}

}  // namespace
}  // namespace trainyard::bulk_test
