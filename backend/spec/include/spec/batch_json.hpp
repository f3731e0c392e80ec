// Azure Batch JSON job specs: what `az batch job create --json-file` and
// `az batch task create --json-file` take, in the REST wire names (azure-batch-api.md §5).
//
// Accepted shapes (decided by the top-level value):
//   - `[task, …]`                      a task array; needs BatchJsonOptions::job_id
//   - `{"job": {…}, "tasks": [ … ]}`   a job and its tasks (`job` may be left out with job_id)
//   - `{"id": …, "commandLine": …}`    one task (an object with `commandLine` and no `poolInfo`);
//                                      needs job_id
//   - `{"id": …, "poolInfo": …}`       a job body with no tasks
// Valid Batch fields that trainyard does not model are kept verbatim; read-only or unknown
// fields go to JobSpec::unmapped with their place. Every error is one line naming file, line,
// column and field.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.hpp"
#include "spec/spec_model.hpp"

namespace trainyard::spec {

/// Choices the caller makes for the file (`trainyard submit` flags).
struct BatchJsonOptions {
  /// `--job-id`: names the job of a task or task array; overrides a job body's id.
  std::optional<std::string> job_id;
};

/// Parses Batch JSON `text`; `file` is the name used in messages and `unmapped` places.
Result<JobSpec> parse_batch_json(std::string_view file, std::string_view text,
                                 const BatchJsonOptions& options = {});

/// Reads and parses a Batch JSON file.
Result<JobSpec> load_batch_json(const std::filesystem::path& path,
                                const BatchJsonOptions& options = {});

}  // namespace trainyard::spec
