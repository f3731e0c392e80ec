// The poller's steps against the emulator: incremental task refresh from a watermark, version
// passes (ids and eTags) that find deletions and changes that keep stateTransitionTime, task and
// node counts as change detectors, marks and pool health.
#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

#include "sync/incremental_sync.hpp"
#include "sync_fixture.hpp"

namespace trainyard::incremental_sync_test {
namespace {

using azuretest::SyncFixture;
using namespace std::chrono_literals;

nlohmann::json echo_task(const std::string& id) {
  return {{"id", id}, {"commandLine", "/bin/sh -c 'echo hi'"}};
}

struct Incremental : ::testing::Test {
  SyncFixture f{{"--seed-tasks", "2000"}};
  SyncTarget t{*f.store, *f.client, f.emu.account(), f.clock, 2s};
  SyncStats stats;

  void SetUp() override { ASSERT_TRUE(full_sync(*f.store, *f.client, f.scope).ok()); }
  uint64_t bytes_of(TaskRefresh how) {
    auto before = f.client->stats().bytes;
    auto ok = refresh_tasks(t, "seed-sweep", how, stats);
    EXPECT_TRUE(ok.ok()) << ok.error().message;
    return f.client->stats().bytes - before;
  }
};

TEST_F(Incremental, AFullSyncLeavesMarksWithAWatermark) {
  auto m = f.store->sync_mark(f.emu.account(), tasks_scope("seed-sweep"));
  ASSERT_TRUE(m.ok() && m->has_value());
  EXPECT_TRUE((*m)->checked_at.has_value());
  EXPECT_TRUE((*m)->watermark.has_value());
  for (const char* scope : {kPoolsScope, kJobsScope, "nodes/seed-gpu"})
    EXPECT_TRUE(f.store->sync_mark(f.emu.account(), scope)->has_value()) << scope;
}

TEST_F(Incremental, AQuietJobCostsAFractionOfAFullList) {
  auto full = bytes_of(TaskRefresh::Full);
  auto incremental = bytes_of(TaskRefresh::Incremental);
  EXPECT_LT(incremental * 20, full) << incremental << " vs " << full;  // under 5%
}

TEST_F(Incremental, NewAndChangedTasksArrive) {
  ASSERT_TRUE(f.client->add_task("seed-sweep", echo_task("fresh-1")).ok());
  EXPECT_EQ(bytes_of(TaskRefresh::Incremental) > 0, true);
  auto task = f.store->task(f.emu.account(), "seed-sweep", "fresh-1");
  ASSERT_TRUE(task.ok() && task->has_value());
  for (int i = 0; i < 100; ++i) {
    ASSERT_TRUE(refresh_tasks(t, "seed-sweep", TaskRefresh::Incremental, stats).ok());
    task = f.store->task(f.emu.account(), "seed-sweep", "fresh-1");
    if ((*task)->state == TaskState::Completed) break;
    std::this_thread::sleep_for(100ms);
  }
  EXPECT_EQ((*task)->state, TaskState::Completed);
  EXPECT_EQ((*task)->execution_info.exit_code, 0);
}

TEST_F(Incremental, CountsNoticeChangesAndVersionPassesFindDeletions) {
  auto same = task_counts_differ(t, "seed-sweep");
  ASSERT_TRUE(same.ok()) << same.error().message;
  EXPECT_FALSE(*same);
  ASSERT_TRUE(f.client->call("DELETE", "/jobs/seed-sweep/tasks/task-0000009").ok());
  EXPECT_TRUE(*task_counts_differ(t, "seed-sweep"));
  // An incremental query cannot see a deletion; the version pass does.
  ASSERT_TRUE(refresh_tasks(t, "seed-sweep", TaskRefresh::Incremental, stats).ok());
  EXPECT_TRUE(f.store->task(f.emu.account(), "seed-sweep", "task-0000009")->has_value());
  ASSERT_TRUE(refresh_tasks(t, "seed-sweep", TaskRefresh::Versions, stats).ok());
  EXPECT_FALSE(f.store->task(f.emu.account(), "seed-sweep", "task-0000009")->has_value());
  EXPECT_FALSE(*task_counts_differ(t, "seed-sweep"));
}

// A retry-count or constraints change moves lastModified and the eTag, not stateTransitionTime:
// the incremental query misses it, the version pass fetches it.
TEST_F(Incremental, VersionPassesFindChangesThatKeepTheTransitionTime) {
  const std::string id = "task-0000011";
  auto put = f.client->call("PUT", "/jobs/seed-sweep/tasks/" + id, {},
                            R"({"constraints":{"maxTaskRetryCount":5}})");
  ASSERT_TRUE(put.ok()) << put.error().message;
  ASSERT_TRUE(refresh_tasks(t, "seed-sweep", TaskRefresh::Incremental, stats).ok());
  EXPECT_EQ(
      f.store->task(f.emu.account(), "seed-sweep", id)->value().constraints.max_task_retry_count,
      0);
  const auto requests = f.client->stats().requests;
  ASSERT_TRUE(refresh_tasks(t, "seed-sweep", TaskRefresh::Versions, stats).ok());
  auto task = f.store->task(f.emu.account(), "seed-sweep", id);
  EXPECT_EQ((*task)->constraints.max_task_retry_count, 5);
  // Two pages of versions (2000 tasks, 1000 a page) and one GET of the changed task.
  EXPECT_EQ(f.client->stats().requests - requests, 3u);
}

// A version pass reads a fraction of what a full listing does.
TEST_F(Incremental, AVersionPassOfAQuietJobCostsAFractionOfAFullList) {
  auto full = bytes_of(TaskRefresh::Full);
  auto versions = bytes_of(TaskRefresh::Versions);
  EXPECT_LT(versions * 4, full) << versions << " vs " << full;
}

// One task deleted and another added that ends the same way: the counts by state stay equal, so
// counts cannot tell; the version pass compares ids and prunes the deleted one.
TEST_F(Incremental, VersionPassesPruneADeletionHiddenByAnAddition) {
  TaskQuery q{f.emu.account(), "seed-sweep", TaskState::Completed};
  auto done = f.store->tasks(q);
  ASSERT_TRUE(done.ok());
  auto gone = std::find_if(done->begin(), done->end(), [](const Task& x) {
    return x.execution_info.result == TaskResult::Success;
  });
  ASSERT_NE(gone, done->end());
  ASSERT_TRUE(f.client->call("DELETE", "/jobs/seed-sweep/tasks/" + gone->id).ok());
  ASSERT_TRUE(f.client->add_task("seed-sweep", {{"id", "newcomer"}, {"commandLine", "true"}}).ok());
  auto completed = [&] {
    auto r = f.client->call("GET", "/jobs/seed-sweep/tasks/newcomer");
    return r.ok() && nlohmann::json::parse(r->body).value("state", "") == "completed";
  };
  for (int i = 0; i < 100 && !completed(); ++i) std::this_thread::sleep_for(100ms);
  ASSERT_TRUE(completed());
  // Neither change reached the cache, and the service's counts equal the cache's.
  auto differ = task_counts_differ(t, "seed-sweep");
  ASSERT_TRUE(differ.ok()) << differ.error().message;
  ASSERT_FALSE(*differ);
  EXPECT_TRUE(f.store->task(f.emu.account(), "seed-sweep", gone->id)->has_value());
  EXPECT_FALSE(f.store->task(f.emu.account(), "seed-sweep", "newcomer")->has_value());
  ASSERT_TRUE(refresh_tasks(t, "seed-sweep", TaskRefresh::Versions, stats).ok());
  EXPECT_FALSE(f.store->task(f.emu.account(), "seed-sweep", gone->id)->has_value());
  auto newcomer = f.store->task(f.emu.account(), "seed-sweep", "newcomer");
  ASSERT_TRUE(newcomer.ok() && newcomer->has_value());
  EXPECT_EQ((*newcomer)->state, TaskState::Completed);
  EXPECT_EQ(f.store->task_ids(f.emu.account(), "seed-sweep")->size(), 2000u);
}

TEST_F(Incremental, AVanishedJobIsRemovedWithItsTasks) {
  ASSERT_TRUE(f.client->call("DELETE", "/jobs/seed-sweep").ok());
  for (int i = 0; i < 50 && f.client->call("GET", "/jobs/seed-sweep").ok(); ++i)
    std::this_thread::sleep_for(100ms);
  auto r = refresh_tasks(t, "seed-sweep", TaskRefresh::Incremental, stats);
  EXPECT_EQ(r.error().kind, ErrorKind::NotFound);
  EXPECT_FALSE(f.store->job(f.emu.account(), "seed-sweep")->has_value());
  EXPECT_EQ(f.store->task_ids(f.emu.account(), "seed-sweep")->size(), 0u);
}

TEST_F(Incremental, AVanishedPoolLeavesNoMarkBehind) {
  ASSERT_TRUE(f.client->call("DELETE", "/pools/seed-cpu").ok());
  for (int i = 0; i < 50 && f.client->call("GET", "/pools/seed-cpu").ok(); ++i)
    std::this_thread::sleep_for(100ms);
  ASSERT_TRUE(refresh_pools(t, stats).ok());
  auto r = refresh_nodes(t, "seed-cpu", stats);  // a pane still showing the pool's nodes
  EXPECT_EQ(r.error().kind, ErrorKind::NotFound);
  EXPECT_FALSE(f.store->sync_mark(f.emu.account(), nodes_scope("seed-cpu"))->has_value());
  EXPECT_TRUE(f.store->nodes(f.emu.account(), "seed-cpu")->empty());
}

TEST_F(Incremental, NodeCountsPointAtPoolsWhoseNodesChanged) {
  auto none = pools_with_node_changes(t);
  ASSERT_TRUE(none.ok()) << none.error().message;
  EXPECT_TRUE(none->empty());
  auto nodes = f.store->nodes(f.emu.account(), "seed-cpu");
  ASSERT_TRUE(nodes.ok() && !nodes->empty());
  ASSERT_TRUE(
      f.client->call("POST", "/pools/seed-cpu/nodes/" + nodes->front().id + "/reboot", {}, "{}")
          .ok());
  auto changed = pools_with_node_changes(t);
  ASSERT_TRUE(changed.ok());
  EXPECT_EQ(*changed, std::vector<std::string>{"seed-cpu"});
}

TEST_F(Incremental, FailuresAreNotedOnTheMarkAndClearedBySuccess) {
  ASSERT_TRUE(
      f.client->call("POST", "/__trainyard/faults", {}, R"({"spec":"500=1,retry-after=0"})").ok());
  EXPECT_FALSE(refresh_pools(t, stats).ok());
  auto m = f.store->sync_mark(f.emu.account(), kPoolsScope);
  EXPECT_NE((*m)->error.find("500"), std::string::npos) << (*m)->error;
  ASSERT_TRUE(f.client->call("POST", "/__trainyard/faults", {}, R"({"spec":""})").ok());
  ASSERT_TRUE(refresh_pools(t, stats).ok());
  EXPECT_TRUE(f.store->sync_mark(f.emu.account(), kPoolsScope)->value().error.empty());
}

}  // namespace
}  // namespace trainyard::incremental_sync_test
