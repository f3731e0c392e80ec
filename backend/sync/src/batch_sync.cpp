#include "sync/batch_sync.hpp"

#include <chrono>

#include "sync/incremental_sync.hpp"

namespace trainyard {

namespace {

Result<void> sync_pools_and_nodes(SyncTarget& t, bool nodes, SyncStats& stats) {
  TY_TRY(refresh_pools(t, stats));
  if (!nodes) return {};
  auto pools = t.store.pools(t.account);
  if (!pools) return pools.error();
  for (const auto& p : *pools) TY_TRY(refresh_nodes(t, p.id, stats));
  return {};
}

// A pass over every job's tasks that a kill interrupted: when it began (this machine's clock).
Result<std::optional<Timestamp>> interrupted_pass(SyncTarget& t) {
  auto m = t.store.sync_mark(t.account, kSyncPassScope);
  if (!m) return m.error();
  if (!*m || (*m)->resume_link.empty()) return std::optional<Timestamp>{};
  return (*m)->resume_from;
}

// Whether the interrupted pass finished this job's tasks.
Result<bool> finished_in(SyncTarget& t, const std::string& job, std::optional<Timestamp> pass) {
  if (!pass) return false;
  auto m = t.store.sync_mark(t.account, tasks_scope(job));
  if (!m) return m.error();
  return *m && (*m)->checked_at && (*m)->watermark && *(*m)->checked_at >= *pass;
}

// The tasks of a job the interrupted pass finished: what changed state since, then a version
// pass for the rest (deletions, changes that keep stateTransitionTime). Counts by state could not
// tell a deletion from an addition that left them equal.
Result<void> catch_up_tasks(SyncTarget& t, const std::string& job, SyncStats& stats) {
  TY_TRY(refresh_tasks(t, job, TaskRefresh::Incremental, stats));
  return refresh_tasks(t, job, TaskRefresh::Versions, stats);
}

Result<void> sync_all_tasks(SyncTarget& t, const std::vector<std::string>& jobs, SyncStats& stats) {
  auto pass = interrupted_pass(t);
  if (!pass) return pass.error();
  const Timestamp began = pass->value_or(t.clock.now());
  for (const auto& job : jobs) {
    TY_TRY(t.store.set_sync_resume(t.account, kSyncPassScope, job, began));
    auto done = finished_in(t, job, *pass);
    if (!done) return done.error();
    TY_TRY(*done ? catch_up_tasks(t, job, stats) : refresh_tasks(t, job, TaskRefresh::Full, stats));
  }
  return t.store.set_sync_mark(t.account,
                               SyncMark{kSyncPassScope, t.clock.now(), std::nullopt, ""});
}

Result<void> sync_jobs_and_tasks(SyncTarget& t, const SyncScope& scope, SyncStats& stats) {
  auto jobs = refresh_jobs(t, scope.job, stats);
  if (!jobs) return jobs.error();
  if (!scope.job.empty() && jobs->empty())
    return make_error(ErrorKind::NotFound, "account " + scope.account + " has no job " + scope.job);
  if (!scope.tasks) return {};
  // One job's tasks resume within the job (its own resume point).
  if (!scope.job.empty()) return refresh_tasks(t, scope.job, TaskRefresh::Full, stats);
  return sync_all_tasks(t, *jobs, stats);
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
    if (auto ok = sync_pools_and_nodes(target, scope.nodes, stats); !ok) return ok.error();
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
