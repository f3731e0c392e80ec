// Which task logs are read to their end: final marks that hold while the task ends as it did,
// the started tasks still unread, and the tasks completed since a point of the history.
#include <gtest/gtest.h>

#include "fixtures.hpp"

namespace trainyard::log_backlog_test {
namespace {

using testing::at_seconds;
using testing::bare_task;

using StoreLogBacklog = testing::StoreTest;

Task ended(const std::string& id, int64_t created_s, int64_t end_s) {
  Task t = bare_task("j", id, TaskState::Completed, created_s);
  t.execution_info.end_time = at_seconds(end_s);
  return t;
}

std::vector<std::string> unread_ids(Store& s) {
  auto u = s.tasks_with_unread_logs("acct", "j", 100);
  EXPECT_TRUE(u.ok()) << u.error().message;
  std::vector<std::string> ids;
  if (u.ok())
    for (const auto& x : *u) ids.push_back(x.task + (x.completed ? ":done" : ":running"));
  return ids;
}

void mark_both(Store& s, const std::string& id) {
  ASSERT_TRUE(s.mark_task_log_final("acct", "j", id, "stdout.txt").ok());
  ASSERT_TRUE(s.mark_task_log_final("acct", "j", id, "stderr.txt").ok());
}

TEST_F(StoreLogBacklog, AMarkHoldsWhileTheTaskEndsWhenItDid) {
  ASSERT_TRUE(store_->upsert_task(ended("t", 1, 10)).ok());
  EXPECT_FALSE(*store_->task_log_final("acct", "j", "t", "stdout.txt"));
  ASSERT_TRUE(store_->mark_task_log_final("acct", "j", "t", "stdout.txt").ok());
  EXPECT_TRUE(*store_->task_log_final("acct", "j", "t", "stdout.txt"));
  EXPECT_FALSE(*store_->task_log_final("acct", "j", "t", "stderr.txt"));
  // Reactivated and ended again later: its logs are new, the mark no longer holds.
  ASSERT_TRUE(store_->upsert_task(ended("t", 1, 20)).ok());
  EXPECT_FALSE(*store_->task_log_final("acct", "j", "t", "stdout.txt"));
}

TEST_F(StoreLogBacklog, NoMarkForATaskThatHasNotCompleted) {
  ASSERT_TRUE(store_->upsert_task(bare_task("j", "r", TaskState::Running, 1)).ok());
  ASSERT_TRUE(store_->mark_task_log_final("acct", "j", "r", "stdout.txt").ok());
  EXPECT_FALSE(*store_->task_log_final("acct", "j", "r", "stdout.txt"));
  EXPECT_FALSE(*store_->task_log_final("acct", "j", "gone", "stdout.txt"));
}

TEST_F(StoreLogBacklog, UnreadTasksAreTheStartedOnesWithoutBothMarksCompletedFirstOldestFirst) {
  ASSERT_TRUE(store_->upsert_task(bare_task("j", "queued", TaskState::Active, 1)).ok());
  ASSERT_TRUE(store_->upsert_task(bare_task("j", "live", TaskState::Running, 2)).ok());
  ASSERT_TRUE(store_->upsert_task(ended("late", 5, 30)).ok());
  ASSERT_TRUE(store_->upsert_task(ended("early", 3, 40)).ok());
  ASSERT_TRUE(store_->upsert_task(ended("half", 4, 50)).ok());
  ASSERT_TRUE(store_->upsert_task(ended("read", 6, 60)).ok());
  Task other = ended("x", 1, 10);
  other.job_id = "k";
  ASSERT_TRUE(store_->upsert_task(other).ok());
  mark_both(*store_, "read");
  ASSERT_TRUE(store_->mark_task_log_final("acct", "j", "half", "stdout.txt").ok());
  EXPECT_EQ(unread_ids(*store_),
            (std::vector<std::string>{"early:done", "half:done", "late:done", "live:running"}));
  auto two = store_->tasks_with_unread_logs("acct", "j", 2);
  ASSERT_TRUE(two.ok());
  EXPECT_EQ(two->size(), 2u);
}

TEST_F(StoreLogBacklog, CompletionsSinceAHistoryRowComeInTheOrderTheyHappened) {
  ASSERT_TRUE(store_->upsert_task(bare_task("j", "a", TaskState::Running, 1)).ok());
  ASSERT_TRUE(store_->upsert_task(bare_task("j", "b", TaskState::Running, 2)).ok());
  auto start = store_->last_state_change_id();
  ASSERT_TRUE(start.ok());
  EXPECT_GT(*start, 0);
  ASSERT_TRUE(store_->upsert_task(ended("b", 2, 10)).ok());
  ASSERT_TRUE(store_->upsert_task(ended("a", 1, 11)).ok());
  auto rows = store_->tasks_completed_since("acct", *start, 10);
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[0].task, "b");
  EXPECT_EQ((*rows)[1].task, "a");
  auto after_b = store_->tasks_completed_since("acct", (*rows)[0].history_id, 10);
  ASSERT_TRUE(after_b.ok());
  ASSERT_EQ(after_b->size(), 1u);
  EXPECT_EQ((*after_b)[0].task, "a");
  EXPECT_TRUE(store_->tasks_completed_since("other", 0, 10)->empty());
}

}  // namespace
}  // namespace trainyard::log_backlog_test
