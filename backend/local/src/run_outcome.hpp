// Internal: how a run ended, as its supervisor decided it, kept in the run directory (`outcome`).
// The supervisor writes it before it records the outcome in the store, so a supervisor that dies
// while the store is busy leaves the outcome for the next scheduling pass to record.
#pragma once

#include <optional>
#include <string>

#include "core/entities.hpp"
#include "core/result.hpp"

namespace trainyard {

/// The end of a run: what the task record's executionInfo gets.
struct RunOutcome {
  TaskResult result = TaskResult::Failure;
  std::optional<int> exit_code;
  std::optional<FailureInfo> failure;
  Timestamp end_time;
};

/// <run_dir>/outcome.
std::string outcome_path(const std::string& run_dir);

/// Writes the outcome (key=value lines), durably, replacing any earlier one.
Result<void> write_run_outcome(const std::string& path, const RunOutcome& o);

/// The outcome in `path`; nullopt when there is none; an error naming file and line when it
/// cannot be read.
Result<std::optional<RunOutcome>> read_run_outcome(const std::string& path);

/// `t` completed with `o` (state, times, result, exit code, failure).
Task completed_with(Task t, const RunOutcome& o);

}  // namespace trainyard
