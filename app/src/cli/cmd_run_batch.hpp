// Internal: `trainyard run` on a Batch (or emulator) account.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "core/time.hpp"
#include "task_inputs.hpp"

namespace trainyard {

/// What `run --account A` adds.
struct RunBatchRequest {
  std::string account, job, id, name, pool;
  std::string command_line;  ///< the words after `--`, shell-quoted
  int gpus = 1;              ///< requiredSlots
  int retries = 0;
  std::optional<Duration> max_wall;
  std::vector<std::string> after;  ///< JOB/TASK of the same job
  int instances = 1;               ///< multiInstanceSettings.numberOfInstances
  std::string coordination;        ///< multiInstanceSettings.coordinationCommandLine
  UploadFlags upload;              ///< `--upload DIR`: inputs and outputs through storage
};

/// Adds the task (creating the job on `pool` when it does not exist), its inputs sent first with
/// `upload`; prints `JOB/TASK`.
int run_on_batch(const CliState& st, const RunBatchRequest& r);

}  // namespace trainyard
