// Internal: everything a Batch task produced, wherever it is: its node's files while the node
// lives, its outputFiles destinations, and the File Conventions blobs in the job's container.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/settings.hpp"
#include "azure/accounts.hpp"
#include "azure/batch_client.hpp"
#include "azure/blob_client.hpp"
#include "azure/blob_transfer.hpp"
#include "core/time.hpp"

namespace trainyard {

/// Where an output was found.
enum class OutputSource { Node, OutputFiles, Conventions };
const char* to_string(OutputSource s);

/// One file or blob.
struct TaskOutput {
  OutputSource source = OutputSource::Node;
  std::string name;       ///< node: relative to the task's directory; blobs: the blob name
  std::string container;  ///< blobs only
  uint64_t size = 0;
  std::optional<Timestamp> last_modified;
  std::string local_name;                     ///< where `--get DIR` puts it, relative to DIR
  std::shared_ptr<azure::BlobClient> client;  ///< blobs only: the account holding it
  std::string storage;  ///< blobs only: trainyard's name of that storage account
};

/// What was found, and why a source could not be read (the node is gone, no credential for a
/// destination's account, no storage account for the conventions container).
struct TaskOutputs {
  Task task;  ///< as the service has it now (its inputs, outputFiles and state)
  std::vector<TaskOutput> items;
  std::vector<std::string> notes;
};

/// Whether blob `name` (in the entry's container) is one that outputFiles entry `f` uploads, as
/// Batch names them: a pattern without wildcards to `path` exactly (or the file's own name), one
/// with wildcards below `path/` under the matched file's name after the pattern's fixed folders
/// (`model*` to `j/t` holds `j/t/model.bin`, not `j/t/logs/stdout.txt`).
bool output_file_holds(const OutputFile& f, const std::string& name);

/// Reads every source; a blob two sources name (an outputFiles destination inside the
/// conventions container, or two entries' prefixes) is listed once. `storage_name` picks the
/// storage account for the conventions container (empty: the Batch account's autoStorage, else the
/// environment's or the only one configured). Fails only when the task cannot be read.
Result<TaskOutputs> find_task_outputs(const Settings& settings, azure::BatchClient& batch,
                                      const azure::AccountConfig& account,
                                      const std::string& storage_name, const std::string& job,
                                      const std::string& task, const Clock& clock);

/// Fetches one output into `dir`, under its `local_name`: a blob with download_blob (resumable,
/// MD5-checked, `options` for its progress), a node file by ranges through a partial file
/// renamed when whole.
Result<void> fetch_task_output(azure::BatchClient& batch, const std::string& job,
                               const std::string& task, const TaskOutput& o, const std::string& dir,
                               const azure::TransferOptions& options = {});

}  // namespace trainyard
