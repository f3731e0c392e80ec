#include "sync/batch_sync.hpp"

#include <sqlite3.h>

#include <chrono>

#include <fmt/format.h>

#include "sync/incremental_sync.hpp"

namespace trainyard {

namespace {

// A pass writes each page in a transaction of its own, so it needs no large page cache; the
// connection's (64 MiB, to hold a whole job in one transaction) grew to most of a 100,000-task
// pass's memory. Held at 8 MiB while the pass runs, then given back.
class PassPageCache {
 public:
  explicit PassPageCache(sqlite3* db) : db_(db) {
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db_, "PRAGMA cache_size", -1, &s, nullptr) == SQLITE_OK &&
        sqlite3_step(s) == SQLITE_ROW)
      old_ = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    if (old_ != 0) sqlite3_exec(db_, "PRAGMA cache_size=-8192", nullptr, nullptr, nullptr);
  }
  ~PassPageCache() {
    if (old_ != 0)
      sqlite3_exec(db_, fmt::format("PRAGMA cache_size={}", old_).c_str(), nullptr, nullptr,
                   nullptr);
  }
  PassPageCache(const PassPageCache&) = delete;
  PassPageCache& operator=(const PassPageCache&) = delete;

 private:
  sqlite3* db_;
  int64_t old_ = 0;  // 0: not read (0 is no size SQLite keeps)
};

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
  ++stats.incremental_listings;
  TY_TRY(refresh_tasks(t, job, TaskRefresh::Incremental, stats));
  return refresh_tasks(t, job, TaskRefresh::Versions, stats);
}

// Whether a job's tasks can be fetched incrementally: the cache holds a watermark for them and no
// full listing of them was left unfinished (that one goes on instead).
Result<bool> has_watermark(SyncTarget& t, const std::string& job) {
  auto m = t.store.sync_mark(t.account, tasks_scope(job));
  if (!m) return m.error();
  return *m && (*m)->watermark && (*m)->resume_link.empty();
}

// A job's tasks: incrementally when the cache holds a watermark for them (unless `full`), else
// every task.
Result<void> sync_job_tasks(SyncTarget& t, const std::string& job, bool full, SyncStats& stats) {
  auto incremental = full ? Result<bool>(false) : has_watermark(t, job);
  if (!incremental) return incremental.error();
  if (*incremental) {
    ++stats.incremental_listings;
    return refresh_changed_tasks(t, job, stats);
  }
  ++stats.full_listings;
  return refresh_tasks(t, job, TaskRefresh::Full, stats);
}

Result<void> sync_all_tasks(SyncTarget& t, const std::vector<std::string>& jobs, bool full,
                            SyncStats& stats) {
  auto pass = interrupted_pass(t);
  if (!pass) return pass.error();
  const Timestamp began = pass->value_or(t.clock.now());
  for (const auto& job : jobs) {
    TY_TRY(t.store.set_sync_resume(t.account, kSyncPassScope, job, began));
    auto done = finished_in(t, job, *pass);
    if (!done) return done.error();
    TY_TRY(*done && !full ? catch_up_tasks(t, job, stats) : sync_job_tasks(t, job, full, stats));
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
  if (!scope.job.empty()) return sync_job_tasks(t, scope.job, scope.full, stats);
  return sync_all_tasks(t, *jobs, scope.full, stats);
}

}  // namespace

std::string pass_kind(const SyncStats& s) {
  if (s.incremental_listings == 0) return "full";
  if (s.full_listings == 0) return "incremental";
  return fmt::format("incremental, {} job{} in full", s.full_listings,
                     s.full_listings == 1 ? "" : "s");
}

Result<SyncStats> full_sync(Store& store, azure::BatchClient& client, const SyncScope& scope) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto before = client.stats();
  SyncStats stats;
  PassPageCache small_cache(store.handle());
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
