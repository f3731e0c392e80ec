// Internal: which blobs a download reads and where each lands, which files an upload sends and
// the blob each becomes, and the transfers of such a plan; shared by `trainyard storage get/put`
// and the TUI's Storage pane.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "azure/blob_client.hpp"
#include "azure/blob_transfer.hpp"
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

/// Watches the transfers of a plan: each file as it starts, its bytes as they go (from the
/// calling thread, after each block), and each as it ends, well or not. Any may be empty.
struct TransferWatch {
  std::function<void(size_t index, const std::string& name)> starting;
  std::function<void(uint64_t done, uint64_t total)> progress;
  std::function<void(size_t index, const Result<azure::TransferResult>& result)> ended;
};

/// What the transfers of a plan moved.
struct TransferTotals {
  uint64_t bytes = 0;
  size_t files = 0;
  size_t verified = 0;  ///< downloads whose MD5 matched the blob's
};

/// Downloads each of `plan` in turn (each in `options.parallel` blocks, checked with MD5),
/// making the folders it needs; stops at the first failure, whose error names the blob.
Result<TransferTotals> run_downloads(azure::BlobClient& c, const std::vector<Download>& plan,
                                     azure::TransferOptions options, const TransferWatch& watch);

/// Uploads each of `plan` in turn into `container` (which must exist); stops at the first
/// failure, whose error names the file.
Result<TransferTotals> run_uploads(azure::BlobClient& c, const std::vector<Upload>& plan,
                                   const std::string& container, azure::TransferOptions options,
                                   const TransferWatch& watch);

}  // namespace trainyard
