// Internal: what `sweep` and `metrics` do first on a Batch account: bring in the logs the cache
// lacks, so the numbers they answer with are every task's last lines.
#pragma once

#include <string>

#include "app/context.hpp"
#include "core/result.hpp"

namespace trainyard {

/// Which logs to bring in.
struct MetricBackfillScope {
  std::string account;  ///< a Batch or emulator account (the local one has nothing to read)
  std::string job;
  std::string task;      ///< empty: every task of the job
  bool offline = false;  ///< read nothing; say how many tasks' logs the cache lacks
};

/// Refreshes the job's tasks, then reads the stdout.txt and stderr.txt of each started task whose
/// copy is not whole (a completed task's to its end) and says on stderr how much it read. When
/// the service cannot be reached (or `offline`), says how many tasks' logs are not in the cache
/// and leaves the answer to the cache; a refused credential is an error.
Result<void> backfill_metrics(AppContext& ctx, const MetricBackfillScope& scope);

}  // namespace trainyard
