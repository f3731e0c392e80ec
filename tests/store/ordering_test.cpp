// Upserts never replace a row with an older snapshot of it: a slow listing page that read an
// entity before the poller stored a newer version must not undo that version.
#include <gtest/gtest.h>

#include "fixtures.hpp"

namespace trainyard::ordering_test {
namespace {

using testing::at_seconds;
using testing::full_task;

using StoreOrdering = testing::StoreTest;

Task batch_task(TaskState state, int modified_s, int transition_s, const std::string& etag) {
  Task t = full_task("t1");
  t.state = state;
  t.last_modified = at_seconds(modified_s);
  t.state_transition_time = at_seconds(transition_s);
  t.etag = etag;
  return t;
}

TEST_F(StoreOrdering, AnOlderTaskSnapshotLeavesTheNewerRowAlone) {
  Task newer = batch_task(TaskState::Completed, 200, 200, "0x2");
  newer.environment_settings = {{"NEW", "1"}};
  ASSERT_TRUE(store_->upsert_task(newer).ok());
  Task older = batch_task(TaskState::Running, 100, 100, "0x1");
  older.environment_settings = {{"OLD", "1"}};
  ASSERT_TRUE(store_->upsert_task(older).ok());
  auto got = store_->task("acct", "job1", "t1");
  ASSERT_TRUE(got.ok() && got->has_value());
  EXPECT_EQ((*got)->state, TaskState::Completed);
  EXPECT_EQ((*got)->etag, "0x2");
  EXPECT_EQ((*got)->last_modified, at_seconds(200));
  EXPECT_EQ((*got)->environment_settings, (std::vector<NameValue>{{"NEW", "1"}}));
  // The skipped snapshot left no state change behind either: only the insert is recorded.
  EXPECT_EQ(store_->state_history("acct", "job1", "t1")->size(), 1u);
}

TEST_F(StoreOrdering, ANewerTaskSnapshotReplacesTheRow) {
  ASSERT_TRUE(store_->upsert_task(batch_task(TaskState::Running, 100, 100, "0x1")).ok());
  Task newer = batch_task(TaskState::Running, 150, 100, "0x2");
  newer.execution_info.retry_count = 7;  // a retry moves lastModified, not stateTransitionTime
  ASSERT_TRUE(store_->upsert_task(newer).ok());
  auto got = store_->task("acct", "job1", "t1");
  EXPECT_EQ((*got)->execution_info.retry_count, 7);
  EXPECT_EQ((*got)->etag, "0x2");
}

// Equal lastModified: the incoming snapshot wins unless its stateTransitionTime is earlier (a
// service whose lastModified does not move with a state change still never goes back).
TEST_F(StoreOrdering, EqualModificationTimesAreOrderedByTransitionTime) {
  ASSERT_TRUE(store_->upsert_task(batch_task(TaskState::Completed, 100, 180, "0x2")).ok());
  ASSERT_TRUE(store_->upsert_task(batch_task(TaskState::Running, 100, 120, "0x1")).ok());
  EXPECT_EQ(store_->task("acct", "job1", "t1")->value().state, TaskState::Completed);
  Task same_time = batch_task(TaskState::Completed, 100, 180, "0x3");
  same_time.execution_info.exit_code = 5;
  ASSERT_TRUE(store_->upsert_task(same_time).ok());
  auto got = store_->task("acct", "job1", "t1");
  EXPECT_EQ((*got)->etag, "0x3");
  EXPECT_EQ((*got)->execution_info.exit_code, 5);
}

TEST_F(StoreOrdering, RowsWithoutModificationTimeAreReplacedAsBefore) {
  Task local = full_task("t1");
  local.state_transition_time = at_seconds(300);
  ASSERT_TRUE(store_->upsert_task(local).ok());
  local.state = TaskState::Running;
  local.state_transition_time = at_seconds(10);  // local runs write what the engine says
  ASSERT_TRUE(store_->upsert_task(local).ok());
  EXPECT_EQ(store_->task("acct", "job1", "t1")->value().state, TaskState::Running);
}

TEST_F(StoreOrdering, TaskVersionsListEveryCachedTaskWithItsETag) {
  ASSERT_TRUE(store_->upsert_task(batch_task(TaskState::Running, 100, 100, "0xA")).ok());
  Task other = full_task("t2");
  ASSERT_TRUE(store_->upsert_task(other).ok());
  auto v = store_->task_versions("acct", "job1");
  ASSERT_TRUE(v.ok()) << v.error().message;
  ASSERT_EQ(v->size(), 2u);
  EXPECT_EQ(v->at("t1").etag, "0xA");
  EXPECT_EQ(v->at("t1").last_modified, at_seconds(100));
  EXPECT_EQ(v->at("t2").etag, "");
  EXPECT_FALSE(v->at("t2").last_modified.has_value());
}

TEST_F(StoreOrdering, AnOlderJobSnapshotLeavesTheNewerRowAlone) {
  Job newer{.account = "acct", .id = "j", .state = JobState::Completed};
  newer.last_modified = at_seconds(200);
  newer.etag = "0x2";
  newer.metadata = {{"k", "new"}};
  ASSERT_TRUE(store_->upsert_job(newer).ok());
  Job older = newer;
  older.state = JobState::Active;
  older.last_modified = at_seconds(100);
  older.etag = "0x1";
  older.metadata = {{"k", "old"}};
  ASSERT_TRUE(store_->upsert_job(older).ok());
  auto got = store_->job("acct", "j");
  EXPECT_EQ((*got)->state, JobState::Completed);
  EXPECT_EQ((*got)->etag, "0x2");
  EXPECT_EQ((*got)->metadata, (std::vector<NameValue>{{"k", "new"}}));
  older.last_modified = at_seconds(300);
  ASSERT_TRUE(store_->upsert_job(older).ok());
  EXPECT_EQ(store_->job("acct", "j")->value().state, JobState::Active);
}

TEST_F(StoreOrdering, AnOlderPoolSnapshotLeavesTheNewerRowAlone) {
  Pool newer{.account = "acct", .id = "p", .target_dedicated_nodes = 4};
  newer.last_modified = at_seconds(200);
  ASSERT_TRUE(store_->upsert_pool(newer).ok());
  Pool older = newer;
  older.target_dedicated_nodes = 1;
  older.last_modified = at_seconds(100);
  ASSERT_TRUE(store_->upsert_pool(older).ok());
  EXPECT_EQ(store_->pools("acct")->at(0).target_dedicated_nodes, 4);
  // A pool's lastModified does not move with its nodes: an equal one still brings new counts.
  Pool counted = newer;
  counted.current_dedicated_nodes = 3;
  ASSERT_TRUE(store_->upsert_pool(counted).ok());
  EXPECT_EQ(store_->pools("acct")->at(0).current_dedicated_nodes, 3);
}

// Nodes carry no lastModified on the wire; their stateTransitionTime only moves forward.
TEST_F(StoreOrdering, AnOlderNodeSnapshotLeavesTheNewerRowAlone) {
  Node newer{.account = "acct", .pool_id = "p", .id = "n", .state = NodeState::Running};
  newer.state_transition_time = at_seconds(200);
  ASSERT_TRUE(store_->upsert_node(newer).ok());
  Node older = newer;
  older.state = NodeState::Starting;
  older.state_transition_time = at_seconds(100);
  ASSERT_TRUE(store_->upsert_node(older).ok());
  EXPECT_EQ(store_->nodes("acct", "p")->at(0).state, NodeState::Running);
  Node busier = newer;
  busier.running_tasks_count = 2;  // no state change: the time stays, the counts move
  ASSERT_TRUE(store_->upsert_node(busier).ok());
  EXPECT_EQ(store_->nodes("acct", "p")->at(0).running_tasks_count, 2);
}

}  // namespace
}  // namespace trainyard::ordering_test
