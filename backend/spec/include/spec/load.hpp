// One entry point for every job-spec format: picks the parser from the file's name and content.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "spec/spec_model.hpp"

namespace trainyard::spec {

/// The `trainyard submit` flags every parser may use.
struct LoadOptions {
  std::optional<std::string> job_id;      ///< `--job-id`
  std::optional<std::string> pool_id;     ///< `--pool`
  std::optional<std::string> mount_root;  ///< `--mount-root` (Batch AI)
  std::optional<int> pool_node_count;     ///< nodes of the target pool (Shipyard multi_instance)
};

/// Which format a file is in.
enum class SpecFormat { BatchJson, BatchAi, Shipyard };

/// Printable name of a format.
const char* format_name(SpecFormat f);

/// `.yaml`/`.yml` is Shipyard; JSON with Batch AI toolkit settings is Batch AI; other JSON is
/// Batch JSON.
SpecFormat detect_format(const std::string& path, const std::string& text);

/// Reads `path` and parses it; every error is one line naming the file, line, column and field.
Result<std::vector<JobSpec>> load_job_specs(const std::string& path, const LoadOptions& options);

}  // namespace trainyard::spec
