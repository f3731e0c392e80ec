// Runs the emulator's tasks as real processes through the local engine's supervisor, in a
// private engine store under the emulator's work directory (never the user's cache).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/entities.hpp"
#include "core/result.hpp"
#include "core/time.hpp"
#include "model.hpp"

namespace trainyard {
class Store;
class LocalEngine;
}  // namespace trainyard

namespace trainyard::emu {

/// One process to start.
struct Launch {
  std::string job;   ///< engine job id
  std::string task;  ///< engine task id
  std::string command_line;
  std::string workdir;
  std::vector<NameValue> environment;  ///< Batch variables and the task's settings
  int max_retries = 0;
  std::optional<Duration> max_wall;
};

/// The local engine, owned by the emulator.
class Runner {
 public:
  /// Opens the engine store in `work_dir/engine`; `exe` runs `__supervise`.
  static Result<std::unique_ptr<Runner>> open(const std::string& work_dir, const std::string& exe);
  ~Runner();

  /// Starts a run in the engine; one the engine already holds under the same ids goes on.
  Result<void> launch(const Launch& l);
  /// The engine's record of a run (state, executionInfo), or nullopt.
  std::optional<Task> status(const std::string& job, const std::string& task);
  /// Ends a run (SIGTERM to its group, SIGKILL after `grace`).
  void stop(const std::string& job, const std::string& task, std::chrono::seconds grace);
  /// Deletes a finished run and its files.
  void remove(const std::string& job, const std::string& task);
  /// Changes whenever any run changed: a cheap check before reading statuses.
  int64_t data_version();
  /// Reaps finished supervisors and starts what is queued.
  void pump();
  /// Where a run's stdout.txt and stderr.txt are.
  std::string run_dir(const std::string& job, const std::string& task) const;
  /// Stops every run that has not ended.
  void stop_all();

 private:
  Runner() = default;
  std::string engine_dir_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<LocalEngine> engine_;
};

/// Copies how an engine run ended into the emulator's execution record.
void copy_execution(const Task& from, Execution& to);

/// An engine id for `base` with a generation: valid as a Batch id (≤ 64 characters).
std::string engine_id(const std::string& base, int generation);

}  // namespace trainyard::emu
