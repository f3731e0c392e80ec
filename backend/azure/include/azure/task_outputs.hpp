// Where a Batch task's outputs are: the Batch File Conventions' job container in the account's
// auto-storage, the task's outputFiles destinations, and the files on its node while it lives.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "azure/batch_client.hpp"
#include "core/result.hpp"
#include "core/time.hpp"

namespace trainyard::azure {

/// The container the Batch File Conventions libraries keep a job's outputs in: `job-` and the
/// lowercased job id when that is a valid container name; else `job-`, the id's first 15
/// characters made safe (`:`, `_` and `-` runs as one `-`, no leading or trailing `-`; `job` when
/// nothing is left), `-` and the SHA-1 (hex) of the lowercased id.
std::string job_output_container(std::string_view job_id);

/// The blob prefix of one task's outputs in that container (`<taskid>/`, then `$TaskOutput/`,
/// `$TaskLog/`, `$TaskPreview/` or `$TaskIntermediate/`).
std::string task_output_prefix(std::string_view task_id);

/// One file on a node, as `GET /jobs/{job}/tasks/{task}/files?recursive=true` lists it.
struct NodeFile {
  std::string name;  ///< relative to the task's directory (`wd/outputs/model.bin`, `stdout.txt`)
  bool is_directory = false;
  uint64_t size = 0;
  std::optional<Timestamp> last_modified;
};

/// Parses one item of a files list page; errors (Parse) name the field.
Result<NodeFile> parse_node_file(const nlohmann::json& item);

/// Every file (not directory) of the task on its node; NotFound once the node or the task's
/// directory is gone.
Result<std::vector<NodeFile>> list_task_files(BatchClient& client, const std::string& job,
                                              const std::string& task);

/// A blob container named by URL (`https://acct.blob.core.windows.net/c`, or Azurite's
/// path-style `http://127.0.0.1:10000/devstoreaccount1/c`), split at the container.
struct ContainerUrl {
  std::string endpoint;  ///< the Blob endpoint, no trailing slash
  std::string account;   ///< the storage account's name
  std::string container;
};
/// nullopt when `url` is not a container URL (no container segment).
std::optional<ContainerUrl> parse_container_url(std::string_view url);

}  // namespace trainyard::azure
