// Full synchronisation of a Batch account into the store: pools, nodes, jobs and tasks, one
// transaction per page, with entities the service no longer has removed.
#pragma once

#include <cstdint>
#include <string>

#include "azure/batch_client.hpp"
#include "core/entities.hpp"
#include "core/result.hpp"
#include "store/store.hpp"

namespace trainyard {

/// What one pass did (the `trainyard sync` line).
struct SyncStats {
  int64_t entities = 0;  ///< pools, nodes, jobs and tasks written
  int64_t deleted = 0;   ///< cached entities the service no longer has
  uint64_t requests = 0;
  uint64_t bytes = 0;  ///< response bytes received
  double seconds = 0;
  int64_t full_listings = 0;         ///< jobs whose every task was listed
  int64_t incremental_listings = 0;  ///< jobs of which only the tasks changed since were listed
};

/// How a pass fetched tasks: "full", "incremental", or "incremental, N jobs in full" (a pass of
/// an account whose new jobs had no watermark yet).
std::string pass_kind(const SyncStats& s);

/// What to synchronise.
struct SyncScope {
  std::string account;
  AccountKind kind = AccountKind::Batch;
  std::string endpoint;
  std::string job;    ///< only this job's tasks (and the job); empty: the whole account
  bool pools = true;  ///< pools
  bool nodes = true;  ///< with `pools`: every pool's nodes (one request per pool)
  bool jobs = true;   ///< jobs (in scope)
  bool tasks = true;  ///< the tasks of the jobs in scope
  /// Every task listed even where the cache holds a watermark (else only the tasks changed since,
  /// with a pass over the ids when the counts say tasks went missing).
  bool full = false;
};

/// Sync-mark scope of a whole-account pass over every job's tasks. While the pass runs its resume
/// point names the job it is at and when it began, so a killed pass can tell the jobs it finished.
inline constexpr const char* kSyncPassScope = "sync";

/// Lists everything in scope and writes it to the store; a failure leaves the pages already
/// written in place (each is whole) and names what failed.
///
/// A job whose tasks the cache holds a watermark for is fetched incrementally, as the poller does
/// (unless `scope.full`): the tasks whose stateTransitionTime is past the watermark (less the
/// overlap), then, when the job's task counts still differ from the cache's, a pass over every
/// task's id and eTag that removes the deleted ones and fetches the changed ones.
///
/// A pass that was killed is resumed, not started over: a job's task listing goes on from the
/// last page it stored, and the jobs whose tasks it finished fetch only what changed since (found
/// by stateTransitionTime, then by comparing every task's eTag, which finds deletions too).
Result<SyncStats> full_sync(Store& store, azure::BatchClient& client, const SyncScope& scope);

}  // namespace trainyard
