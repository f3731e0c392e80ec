// The steps a Batch poller takes: each refreshes one part of an account's cache (pools, a
// pool's nodes, jobs, a job's tasks), writes a page per transaction, and records a sync mark
// (when it was confirmed, and the service time the next incremental query starts from).
#pragma once

#include <string>
#include <vector>

#include "azure/batch_client.hpp"
#include "core/result.hpp"
#include "core/time.hpp"
#include "store/store.hpp"
#include "sync/batch_sync.hpp"

namespace trainyard {

/// Sync-mark scope of pools, jobs, a pool's nodes, a job's tasks.
inline constexpr const char* kPoolsScope = "pools";
inline constexpr const char* kJobsScope = "jobs";
std::string nodes_scope(const std::string& pool);
std::string tasks_scope(const std::string& job);
/// Sync-mark scope whose checked_at says when a job's tasks were last compared whole with the
/// service's (a version pass or a full listing).
std::string versions_scope(const std::string& job);

/// What a step works on. Not thread-safe (the client and the store connection are the caller's).
struct SyncTarget {
  Store& store;
  azure::BatchClient& client;
  std::string account;
  const Clock& clock;
  /// How far before the last query an incremental one starts: covers the service's list lag
  /// and the time between its clock reading and the query.
  Duration overlap = std::chrono::seconds(30);
};

/// Lists the pools (`$select`), stores them and removes the ones gone.
Result<void> refresh_pools(SyncTarget& t, SyncStats& stats);
/// Lists a pool's nodes (`$select`), stores them and removes the ones gone.
Result<void> refresh_nodes(SyncTarget& t, const std::string& pool, SyncStats& stats);
/// Lists the jobs (only `job` when not empty), stores them and removes the ones gone; returns
/// the ids listed.
Result<std::vector<std::string>> refresh_jobs(SyncTarget& t, const std::string& job,
                                              SyncStats& stats);

/// How a job's tasks are refreshed.
enum class TaskRefresh {
  Incremental,  ///< only tasks whose stateTransitionTime is past the watermark (full when none)
  Full,         ///< every task, with deletions
  /// The ids and versions (eTag, lastModified) alone, compared with the cache's: tasks gone are
  /// removed, new or changed ones fetched (a change that keeps stateTransitionTime, such as a
  /// retry or new constraints, included). Exact where counts by state are not: a deletion and
  /// an addition that leave the counts equal are found too.
  Versions,
};

/// Refreshes a job's tasks; a NotFound error when the job is gone (its cache is then removed).
Result<void> refresh_tasks(SyncTarget& t, const std::string& job, TaskRefresh how,
                           SyncStats& stats);

/// A job's tasks as `trainyard sync` refreshes them once the cache holds a watermark: the tasks
/// changed since (TaskRefresh::Incremental), then, when the job's task counts still differ from
/// the cache's (a task deleted, or a change the filter cannot see), a version pass.
Result<void> refresh_changed_tasks(SyncTarget& t, const std::string& job, SyncStats& stats);

/// Whether a job's tasks are due a version pass: never compared whole, or last compared `every`
/// or longer ago (this machine's clock). The time is kept in the store, so a restarted poller
/// keeps the cadence.
Result<bool> task_versions_due(SyncTarget& t, const std::string& job, Duration every);

/// Whether the service's task counts of a job differ from the cache's (one small request): the
/// cheap way to learn that a job not on screen needs a refresh.
Result<bool> task_counts_differ(SyncTarget& t, const std::string& job);

/// Pools whose node counts by state (`/nodecounts`) differ from the cached nodes'.
Result<std::vector<std::string>> pools_with_node_changes(SyncTarget& t);

}  // namespace trainyard
