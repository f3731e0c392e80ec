// Internal: which blobs a download reads and where each lands, and which files an upload sends
// and the blob each becomes; shared by `trainyard storage get/put` and the TUI's Storage pane.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "azure/blob_client.hpp"
#include "core/result.hpp"
#include "storage_lookup.hpp"

namespace trainyard {

/// One blob to read, and the file it becomes.
struct Download {
  BlobPath from;
  std::filesystem::path to;
};

/// The downloads of `sources` (`CONTAINER/BLOB`, or `CONTAINER[/PREFIX/]` for everything below)
/// into `dest`: a folder when there are several sources or it is one, else the file itself.
/// Names that would leave the folder are refused (Parse); an empty prefix is NotFound.
Result<std::vector<Download>> plan_downloads(azure::BlobClient& c,
                                             const std::vector<std::string>& sources,
                                             const std::filesystem::path& dest);

/// One file to send, and the blob it becomes.
struct Upload {
  std::filesystem::path from;
  std::string blob;
};

/// The uploads of `sources` (files, and folders recursively under their own name) below
/// `prefix`; a source that is neither is a Usage error.
Result<std::vector<Upload>> plan_uploads(const std::vector<std::string>& sources,
                                         const std::string& prefix);

}  // namespace trainyard
