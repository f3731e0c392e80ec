// What a Batch node does around a task's command: downloading its resourceFiles into the working
// directory first, and uploading what its outputFiles match when it ends. Only to and from
// loopback http URLs (Azurite's); anything else fails as Batch would fail an unreachable one.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "auto_storage.hpp"

namespace trainyard::emu {

/// Why a task could not start or its outputs were not all uploaded: failureInfo's code and text.
struct FileFailure {
  std::string code;  ///< BlobNotFound, BlobAccessDenied, BlobDownloadMiscError, FileUploadMiscError
  std::string message;
  std::vector<std::string> upload_errors;  ///< each outputFiles entry that failed, one line each
};

/// Downloads each resourceFile into `wd`: an `httpUrl` to its `filePath`; a
/// `storageContainerUrl`'s blobs under `blobPrefix` to their names below `filePath` (or `wd`);
/// an `autoStorageContainerName`'s likewise from `storage` (none: it fails as Batch fails an
/// account without auto-storage). `fileMode` (octal) is applied. The first failure ends it.
std::optional<FileFailure> download_resource_files(const nlohmann::json& files,
                                                   const std::string& wd,
                                                   const AutoStorage* storage = nullptr);

/// Uploads, for each outputFiles entry whose uploadCondition holds (`taskCompletion` always,
/// `taskSuccess` with exit code 0, `taskFailure` otherwise), the files its `filePattern` matches
/// relative to `wd` (`*`, `?` and `**`; `..` reaches the task's own directory) to its
/// container: a pattern without wildcards to `path` (or the file's name), one with wildcards
/// below `path` under the names the matched files have after the pattern's fixed folders. Each
/// entry that failed is one line of the result.
std::vector<std::string> upload_output_files(const nlohmann::json& files, const std::string& wd,
                                             bool success);

/// The failure a task with upload errors ends with (code FileUploadMiscError, each error also
/// apart in `upload_errors`).
FileFailure upload_failure(const std::vector<std::string>& errors);

/// Whether `pattern` (`*` and `?` within a path segment, `**` across segments) matches `path`.
bool output_pattern_matches(const std::string& pattern, const std::string& path);

}  // namespace trainyard::emu
