// The Batch logs windows show (schema 18): one row per process and account, replaced as the
// window moves, forgotten when it goes.
#include <gtest/gtest.h>

#include "fixtures.hpp"

namespace trainyard::watched_logs_test {
namespace {

using testing::at_seconds;

using StoreWatchedLogs = testing::StoreTest;

TEST_F(StoreWatchedLogs, OneRowPerProcessAndAccountReplacedAndForgotten) {
  ASSERT_TRUE(store_->watch_log({11, "acct", "j", "t1", "", "", "stdout.txt", at_seconds(1)}));
  ASSERT_TRUE(store_->watch_log({11, "acct", "j", "t2", "", "", "stderr.txt", at_seconds(2)}));
  ASSERT_TRUE(
      store_->watch_log({12, "acct", "", "", "p", "n", "startup/stderr.txt", at_seconds(3)}));
  ASSERT_TRUE(store_->watch_log({11, "other", "j", "t9", "", "", "stdout.txt", at_seconds(4)}));
  auto rows = store_->watched_logs("acct");
  ASSERT_TRUE(rows.ok()) << rows.error().message;
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[0].pid, 11);
  EXPECT_EQ((*rows)[0].task, "t2");  // the later word replaced the first
  EXPECT_EQ((*rows)[0].file, "stderr.txt");
  EXPECT_EQ((*rows)[0].at, at_seconds(2));
  EXPECT_EQ((*rows)[1].node, "n");
  ASSERT_TRUE(store_->unwatch_logs(11, "acct"));
  EXPECT_EQ(store_->watched_logs("acct")->size(), 1u);
  EXPECT_EQ(store_->watched_logs("other")->size(), 1u);
}

}  // namespace
}  // namespace trainyard::watched_logs_test
