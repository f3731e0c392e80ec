#include <gtest/gtest.h>

#include "fixtures.hpp"

namespace trainyard::grouped_counts_test {
namespace {

using testing::bare_task;

using StoreGroupedCounts = testing::StoreTest;

Task finished(const std::string& job, const std::string& id, TaskResult result) {
  Task t = bare_task(job, id, TaskState::Completed, 1);
  t.execution_info.result = result;
  return t;
}

Node node(const std::string& pool, const std::string& id, NodeState state) {
  Node n;
  n.account = "acct";
  n.pool_id = pool;
  n.id = id;
  n.state = state;
  return n;
}

// j1: 2 queued, 1 preparing, 1 running, 3 completed of which 1 failed.
// j2: 1 running, 2 completed, both failed. j3 has no task. Another account's task is not counted.
TEST_F(StoreGroupedCounts, EveryJobsTasksByStateInOneCall) {
  std::vector<Task> tasks = {
      bare_task("j1", "a", TaskState::Active, 1),    bare_task("j1", "b", TaskState::Active, 2),
      bare_task("j1", "c", TaskState::Preparing, 3), bare_task("j1", "d", TaskState::Running, 4),
      finished("j1", "e", TaskResult::Success),      finished("j1", "f", TaskResult::Success),
      finished("j1", "g", TaskResult::Failure),      bare_task("j2", "a", TaskState::Running, 1),
      finished("j2", "b", TaskResult::Failure),      finished("j2", "c", TaskResult::Failure)};
  Task other = finished("j1", "z", TaskResult::Failure);
  other.account = "other";
  tasks.push_back(other);
  for (const auto& t : tasks) ASSERT_TRUE(store_->upsert_task(t).ok());

  auto counts = store_->job_task_counts("acct");
  ASSERT_TRUE(counts.ok()) << counts.error().message;
  ASSERT_EQ(counts->size(), 2u);
  const auto& j1 = counts->at("j1");
  EXPECT_EQ(j1.by_state.at(TaskState::Active), 2);
  EXPECT_EQ(j1.by_state.at(TaskState::Preparing), 1);
  EXPECT_EQ(j1.by_state.at(TaskState::Running), 1);
  EXPECT_EQ(j1.by_state.at(TaskState::Completed), 3);
  EXPECT_EQ(j1.failed, 1);
  const auto& j2 = counts->at("j2");
  EXPECT_EQ(j2.by_state.at(TaskState::Active), 0);
  EXPECT_EQ(j2.by_state.at(TaskState::Preparing), 0);
  EXPECT_EQ(j2.by_state.at(TaskState::Running), 1);
  EXPECT_EQ(j2.by_state.at(TaskState::Completed), 2);
  EXPECT_EQ(j2.failed, 2);
  EXPECT_TRUE(store_->job_task_counts("nobody")->empty());
}

// p1: 2 idle, 1 unusable, 2 start task failed; p2: 1 running. Another account's pool is apart.
TEST_F(StoreGroupedCounts, EveryPoolsNodesByStateInOneCall) {
  std::vector<Node> nodes = {node("p1", "n1", NodeState::Idle),
                             node("p1", "n2", NodeState::Idle),
                             node("p1", "n3", NodeState::Unusable),
                             node("p1", "n4", NodeState::StartTaskFailed),
                             node("p1", "n5", NodeState::StartTaskFailed),
                             node("p2", "n1", NodeState::Running)};
  Node other = node("p1", "n9", NodeState::Unusable);
  other.account = "other";
  nodes.push_back(other);
  for (const auto& n : nodes) ASSERT_TRUE(store_->upsert_node(n).ok());

  auto counts = store_->node_state_counts("acct");
  ASSERT_TRUE(counts.ok()) << counts.error().message;
  ASSERT_EQ(counts->size(), 2u);
  const auto& p1 = counts->at("p1");
  EXPECT_EQ(p1.size(), 3u);
  EXPECT_EQ(p1.at(NodeState::Idle), 2);
  EXPECT_EQ(p1.at(NodeState::Unusable), 1);
  EXPECT_EQ(p1.at(NodeState::StartTaskFailed), 2);
  const auto& p2 = counts->at("p2");
  EXPECT_EQ(p2.size(), 1u);
  EXPECT_EQ(p2.at(NodeState::Running), 1);
}

// The job list reads every job's metadata at once; each job keeps its own, in order.
TEST_F(StoreGroupedCounts, JobListKeepsEachJobsMetadata) {
  Job a{.account = "acct", .id = "a", .metadata = {{"owner", "ann"}, {"run", "1"}}};
  Job b{.account = "acct", .id = "b"};
  Job c{.account = "acct", .id = "c", .metadata = {{"owner", "cy"}}};
  Job other{.account = "other", .id = "a", .metadata = {{"owner", "zed"}}};
  for (const auto& j : {a, b, c, other}) ASSERT_TRUE(store_->upsert_job(j).ok());
  auto jobs = store_->jobs("acct");
  ASSERT_TRUE(jobs.ok()) << jobs.error().message;
  ASSERT_EQ(jobs->size(), 3u);
  std::map<std::string, std::vector<NameValue>> by_id;
  for (const auto& j : *jobs) by_id[j.id] = j.metadata;
  EXPECT_EQ(by_id["a"], (std::vector<NameValue>{{"owner", "ann"}, {"run", "1"}}));
  EXPECT_TRUE(by_id["b"].empty());
  EXPECT_EQ(by_id["c"], (std::vector<NameValue>{{"owner", "cy"}}));
}

}  // namespace
}  // namespace trainyard::grouped_counts_test
