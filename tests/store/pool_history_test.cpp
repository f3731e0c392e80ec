// A pool's samples over time (the Pool pane's charts) and a task's retries and requeues in its
// state history (the task timeline).
#include <gtest/gtest.h>

#include "fixtures.hpp"

namespace trainyard::pool_history_test {
namespace {

using testing::at_seconds;
using testing::bare_task;

using StorePoolSamples = testing::StoreTest;
using StoreTaskTimeline = testing::StoreTest;

Pool pool(const std::string& id, int dedicated, int spot) {
  Pool p;
  p.account = "acct";
  p.id = id;
  p.current_dedicated_nodes = dedicated;
  p.current_low_priority_nodes = spot;
  return p;
}

Node node(const std::string& pool, const std::string& id, int running_tasks) {
  Node n;
  n.account = "acct";
  n.pool_id = pool;
  n.id = id;
  n.state = running_tasks ? NodeState::Running : NodeState::Idle;
  n.running_tasks_count = running_tasks;
  return n;
}

// gpu: 2 dedicated + 1 Spot nodes running 3 + 0 + 2 tasks; cpu: 4 dedicated, no node stored.
TEST_F(StorePoolSamples, OneSamplePerPoolWithItsNodesRunningTasks) {
  ASSERT_TRUE(store_->upsert_pool(pool("gpu", 2, 1)).ok());
  ASSERT_TRUE(store_->upsert_pool(pool("cpu", 4, 0)).ok());
  for (auto [id, n] : {std::pair{"a", 3}, {"b", 0}, {"c", 2}})
    ASSERT_TRUE(store_->upsert_node(node("gpu", id, n)).ok());
  ASSERT_TRUE(store_->record_pool_samples("acct", at_seconds(1000)).ok());
  auto gpu = store_->pool_samples("acct", "gpu");
  ASSERT_TRUE(gpu.ok()) << gpu.error().message;
  ASSERT_EQ(gpu->size(), 1u);
  EXPECT_EQ((*gpu)[0].at, at_seconds(1000));
  EXPECT_EQ((*gpu)[0].dedicated, 2);
  EXPECT_EQ((*gpu)[0].spot, 1);
  EXPECT_EQ((*gpu)[0].running_tasks, 5);
  auto cpu = store_->pool_samples("acct", "cpu");
  ASSERT_EQ(cpu->size(), 1u);
  EXPECT_EQ((*cpu)[0].dedicated, 4);
  EXPECT_EQ((*cpu)[0].running_tasks, 0);
}

// Two records within one 30-s bucket keep the later; a day-old sample goes when a new one comes.
// at_seconds(0) is 1,700,000,000 s (20 s past a bucket's start): seconds 1000-1029 share a bucket.
TEST_F(StorePoolSamples, OnePerBucketAndADayKept) {
  ASSERT_TRUE(store_->upsert_pool(pool("gpu", 1, 0)).ok());
  ASSERT_TRUE(store_->record_pool_samples("acct", at_seconds(1000)).ok());
  ASSERT_TRUE(store_->upsert_pool(pool("gpu", 3, 0)).ok());
  ASSERT_TRUE(store_->record_pool_samples("acct", at_seconds(1029)).ok());  // same bucket
  ASSERT_TRUE(store_->record_pool_samples("acct", at_seconds(1030), "gpu").ok());
  auto s = store_->pool_samples("acct", "gpu");
  ASSERT_EQ(s->size(), 2u);
  EXPECT_EQ((*s)[0].at, at_seconds(1029));
  EXPECT_EQ((*s)[0].dedicated, 3);
  EXPECT_EQ((*s)[1].at, at_seconds(1030));
  ASSERT_TRUE(store_->record_pool_samples("acct", at_seconds(1029 + 86400)).ok());
  s = store_->pool_samples("acct", "gpu");
  ASSERT_EQ(s->size(), 2u);  // 1029 is a day old and goes; 1030 stays
  EXPECT_EQ((*s)[0].at, at_seconds(1030));
  EXPECT_EQ((*s)[1].at, at_seconds(1029 + 86400));
}

TEST_F(StorePoolSamples, DeletingThePoolDeletesItsSamples) {
  ASSERT_TRUE(store_->upsert_pool(pool("gpu", 1, 0)).ok());
  ASSERT_TRUE(store_->record_pool_samples("acct", at_seconds(10)).ok());
  ASSERT_TRUE(store_->delete_pool("acct", "gpu").ok());
  EXPECT_TRUE(store_->pool_samples("acct", "gpu")->empty());
}

// Queued, started, retried (running again, retry count 1), requeued after a preemption (active,
// requeue count 1), started again, completed: six rows, each with the counts it was stored with.
TEST_F(StoreTaskTimeline, RetriesAndRequeuesHaveTheirOwnRows) {
  Task t = bare_task("j", "t", TaskState::Active, 0);
  ASSERT_TRUE(store_->upsert_task(t).ok());
  auto step = [&](TaskState s, int at, int retries, int requeues) {
    t.state = s;
    t.state_transition_time = at_seconds(at);
    t.execution_info.retry_count = retries;
    t.execution_info.requeue_count = requeues;
    ASSERT_TRUE(store_->upsert_task(t).ok());
  };
  step(TaskState::Running, 10, 0, 0);
  step(TaskState::Running, 20, 1, 0);
  step(TaskState::Running, 20, 1, 0);  // unchanged: no row
  step(TaskState::Active, 30, 1, 1);
  step(TaskState::Running, 40, 1, 1);
  step(TaskState::Completed, 50, 1, 1);
  auto h = store_->state_history("acct", "j", "t");
  ASSERT_TRUE(h.ok()) << h.error().message;
  ASSERT_EQ(h->size(), 6u);
  EXPECT_EQ((*h)[2].from, TaskState::Running);
  EXPECT_EQ((*h)[2].to, TaskState::Running);
  EXPECT_EQ((*h)[2].retry_count, 1);
  EXPECT_EQ((*h)[2].requeue_count, 0);
  EXPECT_EQ((*h)[2].at, at_seconds(20));
  EXPECT_EQ((*h)[3].to, TaskState::Active);
  EXPECT_EQ((*h)[3].requeue_count, 1);
  EXPECT_EQ((*h)[5].to, TaskState::Completed);
  EXPECT_EQ((*h)[5].retry_count, 1);
}

// The local supervisor retried at 01:18:14 a run that started at 01:18:11; the state (running)
// and so its transition time stayed, and the timeline read `01:18:11 retried (1)`. A retry within
// one state is dated by lastRetryTime.
TEST_F(StoreTaskTimeline, ARetryWithinOneStateIsDatedByItsRetryTime) {
  Task t = bare_task("j", "t", TaskState::Running, 0);
  t.state_transition_time = at_seconds(11);
  ASSERT_TRUE(store_->upsert_task(t).ok());
  t.execution_info.retry_count = 1;
  t.execution_info.last_retry_time = at_seconds(14);
  ASSERT_TRUE(store_->upsert_task(t).ok());
  auto h = store_->state_history("acct", "j", "t");
  ASSERT_TRUE(h.ok()) << h.error().message;
  ASSERT_EQ(h->size(), 2u);
  EXPECT_EQ((*h)[0].at, at_seconds(11));
  EXPECT_EQ((*h)[1].retry_count, 1);
  EXPECT_EQ((*h)[1].at, at_seconds(14));
}

}  // namespace
}  // namespace trainyard::pool_history_test
