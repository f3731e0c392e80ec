// Multi-instance tasks: their settings and subtasks survive the store, and go with the task.
#include <gtest/gtest.h>

#include "fixtures.hpp"

namespace trainyard::subtasks_test {
namespace {

using testing::at_seconds;
using testing::full_task;

using StoreSubtasks = testing::StoreTest;

Subtask finished_subtask(int id) {
  Subtask s;
  s.id = id;
  s.state = TaskState::Completed;
  s.state_transition_time = at_seconds(90);
  s.node_info = TaskNodeInfo{"pool1", "node-" + std::to_string(id), "/mnt/t/" + std::to_string(id)};
  auto& e = s.execution_info;
  e.start_time = at_seconds(10);
  e.end_time = at_seconds(90);
  e.exit_code = id;
  e.result = id == 0 ? TaskResult::Success : TaskResult::Failure;
  if (id) e.failure_info = FailureInfo{ErrorCategory::UserError, "FailureExitCode", "exit"};
  return s;
}

TEST_F(StoreSubtasks, MultiInstanceSettingsRoundTrip) {
  Task t = full_task("mi");
  t.multi_instance = MultiInstanceSettings{4, "start-smpd --port 8677"};
  ASSERT_TRUE(store_->upsert_task(t).ok());
  auto got = store_->task("acct", "job1", "mi");
  ASSERT_TRUE(got.ok() && got->has_value());
  ASSERT_TRUE((*got)->multi_instance);
  EXPECT_EQ(*(*got)->multi_instance, *t.multi_instance);
  Task plain = full_task("plain");
  ASSERT_TRUE(store_->upsert_task(plain).ok());
  auto p = store_->task("acct", "job1", "plain");
  ASSERT_TRUE(p.ok() && p->has_value());
  EXPECT_FALSE((*p)->multi_instance);
}

TEST_F(StoreSubtasks, ReplaceAndReadBack) {
  ASSERT_TRUE(store_->upsert_task(full_task("mi")).ok());
  ASSERT_TRUE(
      store_->replace_subtasks("acct", "job1", "mi", {finished_subtask(2), finished_subtask(1)})
          .ok());
  auto subs = store_->subtasks("acct", "job1", "mi");
  ASSERT_TRUE(subs.ok()) << subs.error().message;
  ASSERT_EQ(subs->size(), 2u);
  const Subtask& s = (*subs)[0];
  EXPECT_EQ(s.id, 1);
  EXPECT_EQ(s.state, TaskState::Completed);
  EXPECT_EQ(s.state_transition_time, at_seconds(90));
  ASSERT_TRUE(s.node_info);
  EXPECT_EQ(s.node_info->node_id, "node-1");
  EXPECT_EQ(s.node_info->task_root_directory, "/mnt/t/1");
  EXPECT_EQ(s.execution_info.exit_code, 1);
  EXPECT_EQ(s.execution_info.result, TaskResult::Failure);
  ASSERT_TRUE(s.execution_info.failure_info);
  EXPECT_EQ(s.execution_info.failure_info->code, "FailureExitCode");
  EXPECT_EQ((*subs)[1].id, 2);

  Subtask running;
  running.id = 1;
  running.state = TaskState::Running;
  ASSERT_TRUE(store_->replace_subtasks("acct", "job1", "mi", {running}).ok());
  subs = store_->subtasks("acct", "job1", "mi");
  ASSERT_TRUE(subs.ok());
  ASSERT_EQ(subs->size(), 1u);
  EXPECT_EQ((*subs)[0].state, TaskState::Running);
  EXPECT_FALSE((*subs)[0].node_info);
  EXPECT_FALSE((*subs)[0].execution_info.exit_code);
}

TEST_F(StoreSubtasks, DeletedWithTheirTaskAndJob) {
  ASSERT_TRUE(store_->upsert_task(full_task("a")).ok());
  ASSERT_TRUE(store_->upsert_task(full_task("b")).ok());
  ASSERT_TRUE(store_->replace_subtasks("acct", "job1", "a", {finished_subtask(1)}).ok());
  ASSERT_TRUE(store_->replace_subtasks("acct", "job1", "b", {finished_subtask(1)}).ok());
  ASSERT_TRUE(store_->delete_task("acct", "job1", "a").ok());
  EXPECT_TRUE(store_->subtasks("acct", "job1", "a")->empty());
  EXPECT_EQ(store_->subtasks("acct", "job1", "b")->size(), 1u);
  ASSERT_TRUE(store_->delete_job("acct", "job1").ok());
  EXPECT_TRUE(store_->subtasks("acct", "job1", "b")->empty());
}

}  // namespace
}  // namespace trainyard::subtasks_test
