// Internal: the requests of a remote log tail (HEAD for size and creation time, ranged GETs).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "azure/batch_client.hpp"
#include "core/result.hpp"

namespace trainyard::remote_log {

/// What a HEAD or GET says of the file.
struct FileHead {
  int64_t size = 0;     ///< Content-Length of a HEAD; unset by a GET
  int64_t created = 0;  ///< `ocp-creation-time` in Unix seconds; 0 when the service sent none
};

/// HEAD of `path`; nullopt while the file does not exist (FileNotFound, or a task that has no
/// node yet). A missing job, task, pool or node is NotFound.
Result<std::optional<FileHead>> head(azure::BatchClient& client, const std::string& path);

/// A ranged GET's body and what its headers say.
struct Range {
  std::string body;
  int64_t created = 0;
};

/// Bytes [start, end]; an empty body when the file has since shrunk below `start` or gone.
Result<Range> get_range(azure::BatchClient& client, const std::string& path, int64_t start,
                        int64_t end);

}  // namespace trainyard::remote_log
