// Spot nodes, requeued tasks and a task's resource and output files in the store.
#include <gtest/gtest.h>

#include "fixtures.hpp"

namespace trainyard::spot_files_test {
namespace {

using testing::at_seconds;
using testing::bare_task;

using StoreSpotFiles = testing::StoreTest;

Task task_with_files() {
  Task t = bare_task("j", "t", TaskState::Running, 1);
  ResourceFile http;
  http.http_url = "https://acct.blob.core.windows.net/data/train.csv";
  http.file_path = "train.csv";
  http.file_mode = "0644";
  ResourceFile container;
  container.storage_container_url = "https://acct.blob.core.windows.net/images";
  container.blob_prefix = "cifar/";
  container.file_path = "data";
  container.identity = "/subscriptions/s/uami/reader";
  OutputFile out;
  out.file_pattern = "checkpoints/*.pt";
  out.container_url = "https://acct.blob.core.windows.net/out";
  out.path = "run-7";
  // Header values may hold ": " and quotes; names and values must come back as they were.
  out.upload_headers = {{"x-ms-blob-content-type", "application/octet-stream"},
                        {"x-ms-meta-note", "a: \"b\"\\c"}};
  out.upload_condition = "tasksuccess";
  OutputFile logs;
  logs.file_pattern = "../std*.txt";
  logs.container_url = "https://acct.blob.core.windows.net/logs";
  logs.upload_condition = "taskcompletion";
  t.resource_files = {http, container};
  t.output_files = {out, logs};
  return t;
}

TEST_F(StoreSpotFiles, ResourceAndOutputFilesRoundTrip) {
  Task t = task_with_files();
  ASSERT_TRUE(store_->upsert_task(t).ok());
  auto got = store_->task("acct", "j", "t");
  ASSERT_TRUE(got.ok() && got->has_value()) << (got.ok() ? "" : got.error().message);
  EXPECT_EQ((*got)->resource_files, t.resource_files);
  EXPECT_EQ((*got)->output_files, t.output_files);
  // Listing returns them too (ls tasks --json prints listed tasks).
  auto listed = store_->tasks(TaskQuery{.account = "acct", .job = "j"});
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ((*listed)[0].output_files, t.output_files);
  EXPECT_EQ((*listed)[0].resource_files, t.resource_files);
}

TEST_F(StoreSpotFiles, UpsertReplacesTheFileLists) {
  Task t = task_with_files();
  ASSERT_TRUE(store_->upsert_task(t).ok());
  t.resource_files.pop_back();
  t.output_files.clear();
  ASSERT_TRUE(store_->upsert_task(t).ok());
  auto got = store_->task("acct", "j", "t");
  ASSERT_TRUE(got.ok() && got->has_value());
  ASSERT_EQ((*got)->resource_files.size(), 1u);
  EXPECT_EQ((*got)->resource_files[0].file_path, "train.csv");
  EXPECT_TRUE((*got)->output_files.empty());
}

TEST_F(StoreSpotFiles, NodeKeepsWhetherItIsDedicated) {
  ASSERT_TRUE(store_->upsert_node(Node{.account = "acct", .pool_id = "p", .id = "d"}).ok());
  ASSERT_TRUE(
      store_->upsert_node(Node{.account = "acct", .pool_id = "p", .id = "s", .is_dedicated = false})
          .ok());
  auto nodes = store_->nodes("acct", "p");
  ASSERT_TRUE(nodes.ok());
  ASSERT_EQ(nodes->size(), 2u);
  EXPECT_TRUE((*nodes)[0].is_dedicated);
  EXPECT_FALSE((*nodes)[1].is_dedicated);
}

TEST_F(StoreSpotFiles, RequeuedTasksAndTheirTotal) {
  Task once = bare_task("j", "once", TaskState::Running, 1);
  once.execution_info.requeue_count = 1;
  Task twice = bare_task("k", "twice", TaskState::Active, 2);
  twice.execution_info.requeue_count = 2;
  Task never = bare_task("j", "never", TaskState::Running, 3);
  Task elsewhere = bare_task("j", "other", TaskState::Running, 4);
  elsewhere.account = "other";
  elsewhere.execution_info.requeue_count = 5;
  for (const auto& t : {once, twice, never, elsewhere}) ASSERT_TRUE(store_->upsert_task(t).ok());
  EXPECT_EQ(*store_->requeue_total("acct"), 3);
  auto list = store_->requeued_tasks("acct");
  ASSERT_TRUE(list.ok()) << list.error().message;
  ASSERT_EQ(list->size(), 2u);
  EXPECT_EQ((*list)[0].job, "j");
  EXPECT_EQ((*list)[0].task, "once");
  EXPECT_EQ((*list)[0].requeues, 1);
  EXPECT_EQ((*list)[1].job, "k");
  EXPECT_EQ((*list)[1].task, "twice");
  EXPECT_EQ((*list)[1].requeues, 2);
  EXPECT_EQ(*store_->requeue_total("nobody"), 0);
}

TEST_F(StoreSpotFiles, PreemptedNodesOfAnAccount) {
  auto node = [](const char* pool, const char* id, NodeState s) {
    return Node{.account = "acct",
                .pool_id = pool,
                .id = id,
                .state = s,
                .state_transition_time = at_seconds(1)};
  };
  ASSERT_TRUE(store_->upsert_node(node("spot", "n1", NodeState::Preempted)).ok());
  ASSERT_TRUE(store_->upsert_node(node("spot", "n2", NodeState::Idle)).ok());
  ASSERT_TRUE(store_->upsert_node(node("gpu", "n3", NodeState::Preempted)).ok());
  auto got = store_->preempted_nodes("acct");
  ASSERT_TRUE(got.ok()) << got.error().message;
  ASSERT_EQ(got->size(), 2u);
  EXPECT_EQ((*got)[0].pool_id, "gpu");
  EXPECT_EQ((*got)[0].id, "n3");
  EXPECT_EQ((*got)[1].pool_id, "spot");
  EXPECT_EQ((*got)[1].id, "n1");
}

}  // namespace
}  // namespace trainyard::spot_files_test
