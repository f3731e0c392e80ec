// Full sync of an emulator account into a store: counts, fields, deletions, and faults.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <thread>

#include "store/store.hpp"
#include "sync/batch_sync.hpp"
#include "sync_fixture.hpp"

namespace trainyard {
namespace {

using azuretest::SyncFixture;

TEST(BatchSync, StoresTheWholeAccount) {
  SyncFixture f({"--seed-tasks", "1500"});
  auto stats = full_sync(*f.store, *f.client, f.scope);
  ASSERT_TRUE(stats.ok()) << stats.error().message;
  EXPECT_EQ(stats->entities, 2 + 10 + 1 + 1500);  // pools, nodes, the job, its tasks
  EXPECT_GT(stats->bytes, 0u);
  auto accounts = f.store->accounts();
  ASSERT_TRUE(accounts.ok());
  bool found = false;
  for (const auto& a : *accounts)
    found = found || (a.name == f.emu.account() && a.kind == AccountKind::Emulator);
  EXPECT_TRUE(found);
  auto task = f.store->task(f.emu.account(), "seed-sweep", "task-0000007");
  ASSERT_TRUE(task.ok() && task->has_value());
  EXPECT_EQ((*task)->state, TaskState::Completed);
  EXPECT_TRUE((*task)->execution_info.exit_code.has_value());
  ASSERT_TRUE((*task)->node_info.has_value());
  EXPECT_EQ((*task)->node_info->pool_id, "seed-gpu");
  auto nodes = f.store->nodes(f.emu.account(), "seed-gpu");
  ASSERT_TRUE(nodes.ok());
  EXPECT_EQ(nodes->size(), 8u);
}

TEST(BatchSync, RemovesWhatTheServiceNoLongerHas) {
  SyncFixture f({"--seed-tasks", "30"});
  ASSERT_TRUE(full_sync(*f.store, *f.client, f.scope).ok());
  ASSERT_TRUE(f.client->call("DELETE", "/jobs/seed-sweep/tasks/task-0000003").ok());
  ASSERT_TRUE(f.client->call("DELETE", "/pools/seed-cpu").ok());
  for (int i = 0; i < 50; ++i) {
    if (!f.client->call("GET", "/pools/seed-cpu").ok()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  auto stats = full_sync(*f.store, *f.client, f.scope);
  ASSERT_TRUE(stats.ok()) << stats.error().message;
  EXPECT_EQ(stats->deleted, 2);
  auto gone = f.store->task(f.emu.account(), "seed-sweep", "task-0000003");
  ASSERT_TRUE(gone.ok());
  EXPECT_FALSE(gone->has_value());
  auto pools = f.store->pools(f.emu.account());
  ASSERT_TRUE(pools.ok());
  ASSERT_EQ(pools->size(), 1u);
  EXPECT_EQ(pools->front().id, "seed-gpu");
}

TEST(BatchSync, OneJobOnly) {
  SyncFixture f({"--seed-tasks", "40"});
  f.scope.job = "seed-sweep";
  auto stats = full_sync(*f.store, *f.client, f.scope);
  ASSERT_TRUE(stats.ok()) << stats.error().message;
  EXPECT_EQ(stats->entities, 41);
  f.scope.job = "no-such-job";
  auto missing = full_sync(*f.store, *f.client, f.scope);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().kind, ErrorKind::NotFound);
}

TEST(BatchSync, EndsEqualUnderThirtyPercentFaults) {
  SyncFixture f({"--seed-tasks", "3000", "--faults",
                 "429=0.1,503=0.1,500=0.05,truncate=0.05,retry-after=0,seed=3"});
  auto stats = full_sync(*f.store, *f.client, f.scope);
  ASSERT_TRUE(stats.ok()) << stats.error().message;
  EXPECT_GT(f.client->stats().retries, 0u);
  TaskQuery q;
  q.account = f.emu.account();
  q.job = "seed-sweep";
  auto n = f.store->count_tasks(q);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 3000);
}

}  // namespace
}  // namespace trainyard
