// Files under a transfer: the partial download, the running MD5, and putting a finished file in
// place.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>

#include "core/result.hpp"

struct evp_md_ctx_st;

namespace trainyard::azure {

/// A download's partial file, appended to in order.
class PartialFile {
 public:
  /// Opens (creating, mode 0644) `path` keeping its first `keep` bytes.
  static Result<PartialFile> open(const std::string& path, uint64_t keep);
  PartialFile(PartialFile&& other) noexcept;
  PartialFile& operator=(PartialFile&&) = delete;
  ~PartialFile();

  Result<void> append(std::string_view data);
  /// Flushes to disk and closes.
  Result<void> finish();
  uint64_t size() const { return size_; }

 private:
  PartialFile(std::string path, int fd, uint64_t size)
      : path_(std::move(path)), fd_(fd), size_(size) {}
  std::string path_;
  int fd_ = -1;
  uint64_t size_ = 0;
};

/// A running hash (OpenSSL EVP): MD5 for Content-MD5, SHA-256 for content addresses.
class Digest {
 public:
  enum class Kind { Md5, Sha256 };
  explicit Digest(Kind kind);
  ~Digest();
  Digest(const Digest&) = delete;
  Digest& operator=(const Digest&) = delete;
  void update(std::string_view data);
  /// Adds the first `bytes` of the file at `path`.
  Result<void> update_from_file(const std::string& path, uint64_t bytes);
  /// The digest, base64 (as Content-MD5 carries it); ends the hash.
  std::string base64();
  /// The digest, lowercase hex; ends the hash.
  std::string hex();

 private:
  std::string finish();
  evp_md_ctx_st* ctx_;
};

/// Feeds the first `bytes` of the file at `path` to every digest, reading it once.
Result<void> digest_file(const std::string& path, uint64_t bytes,
                         std::initializer_list<Digest*> digests);

/// Writes `text` to `path` (replacing it); for small bookkeeping files.
Result<void> write_small_file(const std::string& path, const std::string& text);

/// Renames the finished `from` to `to` and makes the rename durable (the folder synced).
Result<void> commit_file(const std::string& from, const std::string& to);

/// An Io error naming `path` and errno's text.
Error file_error(const std::string& path);

}  // namespace trainyard::azure
