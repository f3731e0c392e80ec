#include <gtest/gtest.h>

#include "fixtures.hpp"

namespace trainyard::sync_marks_test {
namespace {

using testing::at_seconds;

using StoreSyncMarks = testing::StoreTest;

TEST_F(StoreSyncMarks, MarkRoundTripsAndReplaces) {
  ASSERT_TRUE(store_->set_sync_mark("acct", {"tasks/j1", at_seconds(5), at_seconds(3), ""}).ok());
  ASSERT_TRUE(store_->set_sync_mark("acct", {"tasks/j1", at_seconds(9), at_seconds(7), ""}).ok());
  auto m = store_->sync_mark("acct", "tasks/j1");
  ASSERT_TRUE(m.ok() && m->has_value());
  EXPECT_EQ((*m)->checked_at, at_seconds(9));
  EXPECT_EQ((*m)->watermark, at_seconds(7));
  EXPECT_TRUE((*m)->error.empty());
  EXPECT_FALSE(store_->sync_mark("acct", "tasks/j2")->has_value());
  EXPECT_FALSE(store_->sync_mark("other", "tasks/j1")->has_value());
}

TEST_F(StoreSyncMarks, ErrorKeepsLastSuccessAndSuccessClearsIt) {
  ASSERT_TRUE(store_->set_sync_error("acct", "pools", "HTTP 503").ok());
  auto first = store_->sync_mark("acct", "pools");
  ASSERT_TRUE(first.ok() && first->has_value());
  EXPECT_FALSE((*first)->checked_at.has_value());  // never succeeded
  ASSERT_TRUE(store_->set_sync_mark("acct", {"pools", at_seconds(1), std::nullopt, ""}).ok());
  ASSERT_TRUE(store_->set_sync_error("acct", "pools", "timed out").ok());
  auto m = store_->sync_mark("acct", "pools");
  EXPECT_EQ((*m)->checked_at, at_seconds(1));
  EXPECT_EQ((*m)->error, "timed out");
  ASSERT_TRUE(store_->set_sync_mark("acct", {"pools", at_seconds(2), std::nullopt, ""}).ok());
  EXPECT_TRUE(store_->sync_mark("acct", "pools")->value().error.empty());
}

TEST_F(StoreSyncMarks, ResumePointIsKeptUntilAPassCompletes) {
  ASSERT_TRUE(store_->set_sync_mark("acct", {"tasks/j1", at_seconds(5), at_seconds(3), ""}).ok());
  ASSERT_TRUE(
      store_->set_sync_resume("acct", "tasks/j1", "http://e/jobs/j1/tasks?x", at_seconds(8)).ok());
  ASSERT_TRUE(store_->set_sync_error("acct", "tasks/j1", "killed").ok());
  auto m = store_->sync_mark("acct", "tasks/j1");
  ASSERT_TRUE(m.ok() && m->has_value());
  EXPECT_EQ((*m)->resume_link, "http://e/jobs/j1/tasks?x");
  EXPECT_EQ((*m)->resume_from, at_seconds(8));
  EXPECT_EQ((*m)->watermark, at_seconds(3));  // the last complete pass's, untouched
  ASSERT_TRUE(store_->set_sync_mark("acct", {"tasks/j1", at_seconds(9), at_seconds(8), ""}).ok());
  m = store_->sync_mark("acct", "tasks/j1");
  EXPECT_TRUE((*m)->resume_link.empty());
  EXPECT_FALSE((*m)->resume_from.has_value());
  // A first listing that never completed has a resume point and no check time.
  ASSERT_TRUE(store_->set_sync_resume("acct", "tasks/j2", "http://e/n", at_seconds(1)).ok());
  EXPECT_FALSE(store_->sync_mark("acct", "tasks/j2")->value().checked_at.has_value());
}

TEST_F(StoreSyncMarks, DeletingAJobOrPoolDropsItsMark) {
  Job j;
  j.account = "acct";
  j.id = "j1";
  ASSERT_TRUE(store_->upsert_job(j).ok());
  Pool p;
  p.account = "acct";
  p.id = "p1";
  ASSERT_TRUE(store_->upsert_pool(p).ok());
  for (const char* scope : {"tasks/j1", "nodes/p1", "jobs"})
    ASSERT_TRUE(store_->set_sync_mark("acct", {scope, at_seconds(1), std::nullopt, ""}).ok());
  ASSERT_TRUE(store_->delete_job("acct", "j1").ok());
  ASSERT_TRUE(store_->delete_pool("acct", "p1").ok());
  auto marks = store_->sync_marks("acct");
  ASSERT_TRUE(marks.ok());
  ASSERT_EQ(marks->size(), 1u);
  EXPECT_EQ(marks->front().scope, "jobs");
}

}  // namespace
}  // namespace trainyard::sync_marks_test
