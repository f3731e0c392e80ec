// What every subcommand needs: the data directory, the store and the local engine's settings.
#pragma once

#include <memory>
#include <string>

#include "app/settings.hpp"
#include "core/result.hpp"
#include "core/time.hpp"
#include "local/engine.hpp"
#include "store/store.hpp"

namespace trainyard {

/// The wall clock, the context's clock outside tests.
const Clock& wall_clock();

/// Opened data directory and store of one trainyard process.
struct AppContext {
  /// A context that reads the time from `time_source`, which must outlive it.
  explicit AppContext(const Clock& time_source = wall_clock()) : clock(time_source) {}

  std::string data_dir;
  std::unique_ptr<Store> store;
  EngineConfig engine;
  /// Where engine.cpu_slots came from: `TRAINYARD_CPU_SLOTS=4 in the environment`,
  /// `local.cpuSlots in config.json` or `the default`.
  std::string cpu_slots_source;
  Settings settings;
  const Clock& clock;  ///< "now" for every age, duration and date the program shows or judges by
};

/// Loads the settings, creates the data directory (mode 0700) and opens cache.db in it; the
/// context reads the time from `clock`.
Result<std::unique_ptr<AppContext>> open_context(const std::string& data_dir_flag,
                                                 const Clock& clock = wall_clock());

/// Exit code for an error: 2 for usage and bad input, 1 otherwise.
int exit_code_for(const Error& e);

/// Prints `trainyard: <message>` to stderr and returns exit_code_for(e).
int report(const Error& e);

/// Splits `JOB/TASK`; a usage error otherwise.
Result<std::pair<std::string, std::string>> split_task_ref(const std::string& ref);

/// `local`, or an account known to config.json, the environment or discovery (cached in the
/// data directory `data_dir_flag` resolves to); a Usage error naming the known ones otherwise.
Result<void> check_account(const std::string& account, const std::string& data_dir_flag = "");

/// True when the cache holds account `account` (browsable offline even if no longer configured).
bool cached_account(Store* store, const std::string& account);

}  // namespace trainyard
