// Bringing a Batch task's stdout.txt and stderr.txt into the cache after the task has run, so
// its metrics are its last lines whoever watched it: one task (the poller, as tasks complete), or
// every unread task of a job (`sweep`, `metrics` and the sweep view, before they answer).
#pragma once

#include <cstdint>
#include <string>

#include "azure/batch_client.hpp"
#include "core/result.hpp"
#include "store/store.hpp"
#include "sync/remote_log.hpp"

namespace trainyard {

/// What a backfill read.
struct LogBackfill {
  size_t tasks = 0;    ///< tasks whose files were read
  size_t files = 0;    ///< files that gained bytes
  uint64_t bytes = 0;  ///< bytes appended to the cache copies

  LogBackfill& operator+=(const LogBackfill& o) {
    tasks += o.tasks;
    files += o.files;
    bytes += o.bytes;
    return *this;
  }
};

/// Where a backfill reads from and writes to.
struct LogBackfillTarget {
  Store& store;
  azure::BatchClient& client;
  std::string data_dir;  ///< the copies' root (see remote_cache_path)
  std::string account;
  RemoteLogOptions options;  ///< metric patterns; step limits are the backfill's own
};

/// Reads the task's stdout.txt and stderr.txt into their copies: a completed task's to the end
/// (marking them read, see Store::mark_task_log_final), a running one's as far as they are now.
Result<LogBackfill> read_task_logs(LogBackfillTarget& target, const std::string& job,
                                   const std::string& task, bool completed);

/// read_task_logs() as the cache has the task now: nothing for one not started (or not cached),
/// to the end for a completed one.
Result<LogBackfill> read_started_task_logs(LogBackfillTarget& target, const std::string& job,
                                           const std::string& task);

/// Every started task of `job` whose logs are not all read (Store::tasks_with_unread_logs).
Result<LogBackfill> read_unread_job_logs(LogBackfillTarget& target, const std::string& job);

}  // namespace trainyard
