#include "sync/batch_sync.hpp"

#include <chrono>

#include "sync/incremental_sync.hpp"

namespace trainyard {

namespace {

Result<void> sync_pools_and_nodes(SyncTarget& t, SyncStats& stats) {
  TY_TRY(refresh_pools(t, stats));
  auto pools = t.store.pools(t.account);
  if (!pools) return pools.error();
  for (const auto& p : *pools) TY_TRY(refresh_nodes(t, p.id, stats));
  return {};
}

Result<void> sync_jobs_and_tasks(SyncTarget& t, const SyncScope& scope, SyncStats& stats) {
  auto jobs = refresh_jobs(t, scope.job, stats);
  if (!jobs) return jobs.error();
  if (!scope.job.empty() && jobs->empty())
    return make_error(ErrorKind::NotFound, "account " + scope.account + " has no job " + scope.job);
  if (!scope.tasks) return {};
  for (const auto& job : *jobs) TY_TRY(refresh_tasks(t, job, TaskRefresh::Full, stats));
  return {};
}

}  // namespace

Result<SyncStats> full_sync(Store& store, azure::BatchClient& client, const SyncScope& scope) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto before = client.stats();
  SyncStats stats;
  SystemClock clock;
  SyncTarget target{store, client, scope.account, clock};
  Account account{scope.account, scope.kind, scope.endpoint};
  if (auto ok = store.upsert_account(account); !ok) return ok.error();
  if (scope.job.empty() && scope.pools) {
    if (auto ok = sync_pools_and_nodes(target, stats); !ok) return ok.error();
  }
  if (scope.jobs || scope.tasks) {
    if (auto ok = sync_jobs_and_tasks(target, scope, stats); !ok) return ok.error();
  }
  stats.requests = client.stats().requests - before.requests;
  stats.bytes = client.stats().bytes - before.bytes;
  stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return stats;
}

}  // namespace trainyard
