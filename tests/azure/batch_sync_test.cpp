// Full sync of an emulator account into a store: counts, fields, deletions, and faults.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <thread>

#include "azure/parse.hpp"
#include "store/store.hpp"
#include "sync/batch_sync.hpp"
#include "sync/incremental_sync.hpp"
#include "sync_fixture.hpp"

namespace trainyard::batch_sync_test {
namespace {

using azuretest::SyncFixture;
using namespace std::chrono_literals;

// What a sync killed after storing the first page of a job's tasks leaves behind: that page, and
// where the listing goes on (pages of 100, so the link asks for 100 too).
void kill_after_first_page(SyncFixture& f, const std::string& job, Timestamp began) {
  const std::string account = f.emu.account();
  auto listed = f.client->list(
      "/jobs/" + job + "/tasks", {{"maxresults", "100"}},
      [&](azure::ListPage& page) -> Result<void> {
        for (const auto& j : page.items) {
          auto task = azure::parse_task(j, account, job);
          EXPECT_TRUE(task.ok() && f.store->upsert_task(*task).ok());
        }
        EXPECT_TRUE(
            f.store->set_sync_resume(account, tasks_scope(job), page.next_link, began).ok());
        return make_error(ErrorKind::Io, "killed");
      });
  ASSERT_FALSE(listed.ok());
}

size_t cached_tasks(SyncFixture& f, const std::string& job) {
  auto ids = f.store->task_ids(f.emu.account(), job);
  return ids.ok() ? ids->size() : 0;
}

// A resumed pass that ended: its resume point is gone, and the next full pass lists everything
// again.
void expect_resume_finished(SyncFixture& f, const std::string& scope, int64_t all_entities) {
  auto m = f.store->sync_mark(f.emu.account(), scope);
  ASSERT_TRUE(m.ok() && m->has_value());
  EXPECT_TRUE((*m)->resume_link.empty());
  SyncScope full = f.scope;
  full.full = true;
  auto again = full_sync(*f.store, *f.client, full);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->entities, all_entities);
}

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

TEST(BatchSync, AKilledListingGoesOnFromItsLastStoredPage) {
  SyncFixture f({"--seed-tasks", "1200"});
  kill_after_first_page(f, "seed-sweep", f.clock.now() - 30s);
  ASSERT_EQ(cached_tasks(f, "seed-sweep"), 100u);
  // Meanwhile a task of the stored page is deleted: the resumed pass still notices.
  ASSERT_TRUE(f.client->call("DELETE", "/jobs/seed-sweep/tasks/task-0000003").ok());
  auto stats = full_sync(*f.store, *f.client, f.scope);
  ASSERT_TRUE(stats.ok()) << stats.error().message;
  EXPECT_EQ(stats->entities, 2 + 10 + 1 + 1100);  // pools, nodes, the job, the other 11 pages
  EXPECT_EQ(stats->deleted, 1);
  EXPECT_EQ(cached_tasks(f, "seed-sweep"), 1199u);
  auto m = f.store->sync_mark(f.emu.account(), tasks_scope("seed-sweep"));
  ASSERT_TRUE(m.ok() && m->has_value());
  EXPECT_TRUE((*m)->watermark.has_value());
  expect_resume_finished(f, tasks_scope("seed-sweep"), 2 + 10 + 1 + 1199);
}

TEST(BatchSync, AKilledPassDoesNotFetchAgainTheJobsItFinished) {
  SyncFixture f({"--seed-tasks", "1200"});
  ASSERT_TRUE(
      f.client->call("POST", "/jobs", {}, R"({"id":"zz-next","poolInfo":{"poolId":"seed-gpu"}})")
          .ok());
  const Timestamp began = f.clock.now();
  SyncTarget t{*f.store, *f.client, f.emu.account(), f.clock};
  SyncStats first;
  ASSERT_TRUE(refresh_tasks(t, "seed-sweep", TaskRefresh::Full, first).ok());
  ASSERT_TRUE(f.store->set_sync_resume(f.emu.account(), kSyncPassScope, "zz-next", began).ok());
  auto stats = full_sync(*f.store, *f.client, f.scope);
  ASSERT_TRUE(stats.ok()) << stats.error().message;
  EXPECT_EQ(stats->entities, 2 + 10 + 2);  // pools, nodes, jobs; no task again
  EXPECT_EQ(cached_tasks(f, "seed-sweep"), 1200u);
  expect_resume_finished(f, kSyncPassScope, 2 + 10 + 2 + 1200);
}

// A listing page read before the poller stored a newer version of a task must not undo it: the
// row stored last (a later lastModified) stays until the service has something newer still.
TEST(BatchSync, AnOlderListingDoesNotUndoANewerRow) {
  SyncFixture f({"--seed-tasks", "30"});
  ASSERT_TRUE(full_sync(*f.store, *f.client, f.scope).ok());
  auto stored = f.store->task(f.emu.account(), "seed-sweep", "task-0000004");
  ASSERT_TRUE(stored.ok() && stored->has_value());
  Task newer = **stored;
  newer.display_name = "stored by the poller";
  newer.last_modified = *newer.last_modified + 1h;
  newer.etag = "0xNEWER";
  ASSERT_TRUE(f.store->upsert_task(newer).ok());
  f.scope.full = true;
  ASSERT_TRUE(full_sync(*f.store, *f.client, f.scope).ok());
  auto after = f.store->task(f.emu.account(), "seed-sweep", "task-0000004");
  EXPECT_EQ((*after)->display_name, "stored by the poller");
  EXPECT_EQ((*after)->etag, "0xNEWER");
  // Another task of the same page, with nothing newer cached, was written as listed.
  EXPECT_FALSE(f.store->task(f.emu.account(), "seed-sweep", "task-0000005")->value().etag.empty());
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
}  // namespace trainyard::batch_sync_test
