// Private to trainyard_spec: shared state of the Batch AI mapping and the toolkit readers.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "source_map_json.hpp"

namespace trainyard::spec {

/// State while mapping one Batch AI job.
struct AiContext {
  const SourceMap& map;
  JobSpec& spec;
  std::string job_id;
  int node_count = 1;
  /// `AZ_BATCHAI_*` name → value, substituted in text and set as job environment.
  std::vector<std::pair<std::string, std::string>> vars;
  /// Names of environment variables the task sets, forwarded to remote MPI ranks with `-x`.
  std::vector<std::string> env_names;
};

/// Replaces `$NAME` and `${NAME}` of every known AZ_BATCHAI variable in `text`.
std::string substitute(const AiContext& ctx, std::string_view text);
/// `'text'` for a POSIX shell.
std::string shell_quote(std::string_view text);
/// Reports a field of `f` as unmapped.
void unmapped(AiContext& ctx, JsonFields& f, std::string_view key, std::string what);

/// The shell command of the toolkit setting in `props` (exactly one is required).
std::string read_toolkit(AiContext& ctx, JsonFields& props);

}  // namespace trainyard::spec
