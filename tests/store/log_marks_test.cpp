// The marks that date a log's lines: when each stretch of a file had been read.
#include <gtest/gtest.h>

#include "fixtures.hpp"

namespace trainyard::log_marks_test {
namespace {

using testing::at_seconds;
using testing::bare_task;

using StoreLogMarks = testing::StoreTest;

std::vector<LogMark> marks_of(Store& s, const std::string& file, int64_t after = -1) {
  auto m = s.log_marks("acct", "j", "t", file, after, 100);
  EXPECT_TRUE(m.ok()) << m.error().message;
  return m.ok() ? *m : std::vector<LogMark>{};
}

TEST_F(StoreLogMarks, MarksComeBackByOffsetFromTheFirstPastTheStart) {
  ASSERT_TRUE(store_->add_log_mark("acct", "j", "t", "stdout.txt", {120, at_seconds(2)}).ok());
  ASSERT_TRUE(store_->add_log_mark("acct", "j", "t", "stdout.txt", {40, at_seconds(1)}).ok());
  ASSERT_TRUE(store_->add_log_mark("acct", "j", "t", "stderr.txt", {7, at_seconds(5)}).ok());
  EXPECT_EQ(marks_of(*store_, "stdout.txt"),
            (std::vector<LogMark>{{40, at_seconds(1)}, {120, at_seconds(2)}}));
  // A line starting at byte 40 was read by the mark that ends past it: 120.
  EXPECT_EQ(marks_of(*store_, "stdout.txt", 40), (std::vector<LogMark>{{120, at_seconds(2)}}));
  EXPECT_EQ(marks_of(*store_, "stderr.txt"), (std::vector<LogMark>{{7, at_seconds(5)}}));
  auto one = store_->log_marks("acct", "j", "t", "stdout.txt", -1, 1);
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(one->size(), 1u);
}

TEST_F(StoreLogMarks, TheSameEndReadAgainKeepsItsFirstTime) {
  ASSERT_TRUE(store_->add_log_mark("acct", "j", "t", "stdout.txt", {40, at_seconds(1)}).ok());
  ASSERT_TRUE(store_->add_log_mark("acct", "j", "t", "stdout.txt", {40, at_seconds(9)}).ok());
  EXPECT_EQ(marks_of(*store_, "stdout.txt"), (std::vector<LogMark>{{40, at_seconds(1)}}));
}

TEST_F(StoreLogMarks, AFileStartedOverLosesItsMarksOnly) {
  ASSERT_TRUE(store_->add_log_mark("acct", "j", "t", "stdout.txt", {40, at_seconds(1)}).ok());
  ASSERT_TRUE(store_->add_log_mark("acct", "j", "t", "stderr.txt", {7, at_seconds(5)}).ok());
  ASSERT_TRUE(store_->set_log_offset("acct", "j", "t", "stdout.txt", 40).ok());
  EXPECT_EQ(marks_of(*store_, "stdout.txt").size(), 1u);  // reading on keeps them
  ASSERT_TRUE(store_->set_log_offset("acct", "j", "t", "stdout.txt", 0).ok());
  EXPECT_TRUE(marks_of(*store_, "stdout.txt").empty());
  EXPECT_EQ(marks_of(*store_, "stderr.txt").size(), 1u);
  ASSERT_TRUE(store_->clear_log_marks("acct", "j", "t", "stderr.txt").ok());
  EXPECT_TRUE(marks_of(*store_, "stderr.txt").empty());
}

TEST_F(StoreLogMarks, RemovingTheTaskRemovesItsMarks) {
  ASSERT_TRUE(store_->upsert_task(bare_task("j", "t", TaskState::Completed, 1)).ok());
  ASSERT_TRUE(store_->add_log_mark("acct", "j", "t", "stdout.txt", {40, at_seconds(1)}).ok());
  ASSERT_TRUE(store_->delete_task("acct", "j", "t").ok());
  EXPECT_TRUE(marks_of(*store_, "stdout.txt").empty());
}

}  // namespace
}  // namespace trainyard::log_marks_test
