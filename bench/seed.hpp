// Seeding of benchmark data: one big job of completed tasks with metrics, in one write().
#pragma once

#include <string>

#include "core/result.hpp"
#include "store/store.hpp"

namespace trainyard::bench {

/// What to seed.
struct SeedOptions {
  std::string data_dir;  ///< cache.db goes here (created 0700)
  std::string job = "big";
  int tasks = 100000;  ///< all completed; one in ten failed
  int metrics = 2;     ///< metric series per task (loss, val_loss, accuracy, …)
  int points = 20;     ///< points per series
};

/// Id of the i-th seeded task (`task-000042`).
std::string seeded_task_id(int i);

/// Writes the job, its tasks and their metrics into `store` in one transaction.
///
/// Every task is completed: the local engine starts queued local tasks and repairs running ones
/// that have no process, so no other state can be seeded under account `local`.
Result<void> seed_big_job(Store& store, const SeedOptions& o);

/// Opens (creating) `o.data_dir`/cache.db and seeds it; returns the milliseconds taken.
Result<double> seed_data_dir(const SeedOptions& o);

}  // namespace trainyard::bench
