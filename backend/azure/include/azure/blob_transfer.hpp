// Moving whole files to and from blobs: blocks in parallel, memory bounded, checked with MD5;
// a download resumes where an interrupted one stopped.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "azure/blob_client.hpp"
#include "core/result.hpp"

namespace trainyard::azure {

/// How a transfer runs.
struct TransferOptions {
  uint64_t block_size = uint64_t{8} << 20;  ///< bytes per request (a block, or a range)
  int parallel = 4;                         ///< requests in flight at once
  /// Told the bytes done so far and the total, from the calling thread, after each block.
  std::function<void(uint64_t done, uint64_t total)> progress;
};

/// The suffix of a download in progress: `DEST` + this holds the bytes so far, and `DEST` + this
/// + `.etag` the blob's ETag, so a later download of the same blob goes on from there.
inline constexpr const char* kPartialSuffix = ".trainyard-part";

/// What a finished transfer did.
struct TransferResult {
  uint64_t bytes = 0;         ///< the file's size
  uint64_t resumed_from = 0;  ///< bytes a download found already there
  std::string content_md5;    ///< base64 MD5 of the whole file
  bool verified = false;      ///< the blob had an MD5 and the file matched it
};

/// Downloads the blob to `dest` (a file path; its folder must exist). The bytes go to the partial
/// file first and become `dest` only when complete and matching the blob's size and MD5 (where
/// the blob has one); an existing `dest` is replaced only then. A partial file of the same blob
/// (same ETag) is continued; one of another version is started over. A blob that changes during
/// the download fails with Conflict and keeps what was read for the next try; an MD5 mismatch
/// removes the partial file.
Result<TransferResult> download_blob(BlobClient& client, const std::string& container,
                                     const std::string& blob, const std::string& dest,
                                     const TransferOptions& options = {});

/// Uploads the file as a block blob (one request when it fits in a block), with the whole
/// file's MD5 stored on the blob and each block's checked by the service. `content_type` empty:
/// guessed from the name (text, JSON, images), else application/octet-stream.
Result<TransferResult> upload_file(BlobClient& client, const std::string& path,
                                   const std::string& container, const std::string& blob,
                                   const TransferOptions& options = {},
                                   const std::string& content_type = "");

/// A file kept under the hash of its bytes.
struct AddressedBlob {
  std::string blob;   ///< `<prefix>` and the SHA-256 (lowercase hex) of the file's bytes
  uint64_t size = 0;  ///< the file's size
  bool sent = false;  ///< false: the blob was there already, with the same size and MD5
};

/// Uploads the file as `<prefix><sha256>` unless that blob is there already with the file's size
/// and MD5, so an unchanged file is never sent twice (and a damaged blob is replaced). A file that
/// changes while it is sent fails with Conflict.
Result<AddressedBlob> upload_addressed(BlobClient& client, const std::string& path,
                                       const std::string& container, const std::string& prefix,
                                       const TransferOptions& options = {});

/// The Content-Type an upload gives a file called `name`.
std::string content_type_for(const std::string& name);

}  // namespace trainyard::azure
