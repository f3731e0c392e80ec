#include <gtest/gtest.h>

#include "fixtures.hpp"

namespace trainyard::failed_tasks_test {
namespace {

using testing::at_seconds;
using testing::bare_task;

using StoreFailedTasks = testing::StoreTest;

Task ended(const std::string& job, const std::string& id, TaskResult result, int end_s) {
  Task t = bare_task(job, id, TaskState::Completed, 1);
  t.execution_info.result = result;
  t.execution_info.end_time = at_seconds(end_s);
  return t;
}

// j: two failures (ended at 10 and 20), one success, one running; another job's failure is not
// listed. The latest failure comes first.
TEST_F(StoreFailedTasks, AJobsFailuresLatestFirst) {
  for (const Task& t :
       {ended("j", "old", TaskResult::Failure, 10), ended("j", "new", TaskResult::Failure, 20),
        ended("j", "ok", TaskResult::Success, 30), ended("k", "other", TaskResult::Failure, 40),
        bare_task("j", "run", TaskState::Running, 1)})
    ASSERT_TRUE(store_->upsert_task(t).ok());
  auto f = store_->failed_tasks("acct", "j");
  ASSERT_TRUE(f.ok()) << f.error().message;
  ASSERT_EQ(f->size(), 2u);
  EXPECT_EQ((*f)[0].id, "new");
  EXPECT_EQ((*f)[1].id, "old");
  auto page = store_->failed_tasks("acct", "j", 1, 5);
  ASSERT_EQ(page->size(), 1u);
  EXPECT_EQ((*page)[0].id, "old");
}

}  // namespace
}  // namespace trainyard::failed_tasks_test
