// Downloading a blob: ranges fetched in parallel, written in order to a partial file (so its
// size is always how far the download got), checked, then renamed into place.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "azure/blob_transfer.hpp"
#include "blob_files.hpp"

namespace trainyard::azure {

namespace {

// Ranges fetched by worker threads, handed to the writer in order; workers stay at most
// `window` ranges ahead of the writer, which bounds the memory held.
class RangeFetcher {
 public:
  RangeFetcher(BlobClient& client, const std::string& container, const std::string& blob,
               const std::string& etag, uint64_t start, uint64_t end, uint64_t block, int parallel)
      : container_(container),
        blob_(blob),
        etag_(etag),
        start_(start),
        end_(end),
        block_(block),
        count_((end - start + block - 1) / block),
        window_(static_cast<uint64_t>(parallel) + 1) {
    for (int i = 0; i < parallel && static_cast<uint64_t>(i) < count_; ++i)
      clients_.push_back(client.sibling());
    for (auto& c : clients_) workers_.emplace_back([this, &c] { work(*c); });
  }
  ~RangeFetcher() { stop(); }

  uint64_t count() const { return count_; }

  /// Range `i`'s bytes, waiting for them; the first error any worker met instead.
  Result<std::string> take(uint64_t i) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return failed_ || ready_.count(i) != 0; });
    if (failed_) return *failed_;
    std::string data = std::move(ready_[i]);
    ready_.erase(i);
    written_ = i + 1;
    changed_.notify_all();
    return data;
  }

  void stop() {
    {
      std::lock_guard lock(mutex_);
      if (!failed_) failed_ = make_error(ErrorKind::Internal, "download stopped");
    }
    changed_.notify_all();
    for (auto& c : clients_) c->cancel();
    for (auto& w : workers_)
      if (w.joinable()) w.join();
  }

 private:
  std::optional<uint64_t> claim() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return failed_ || claimed_ < written_ + window_; });
    if (failed_ || claimed_ >= count_) return std::nullopt;
    return claimed_++;
  }

  void work(BlobClient& client) {
    while (auto i = claim()) {
      const uint64_t offset = start_ + *i * block_;
      const uint64_t length = std::min(block_, end_ - offset);
      auto r = client.read_range(container_, blob_, offset, length, etag_);
      std::lock_guard lock(mutex_);
      if (r && r->data.size() != length)
        r = make_error(ErrorKind::Parse, fmt::format("range at {} came back with {} of {} bytes",
                                                     offset, r->data.size(), length));
      if (!r) {
        if (!failed_) failed_ = r.error();
      } else {
        ready_[*i] = std::move(r->data);
      }
      changed_.notify_all();
    }
  }

  const std::string& container_;
  const std::string& blob_;
  const std::string& etag_;
  const uint64_t start_, end_, block_, count_, window_;
  std::vector<std::unique_ptr<BlobClient>> clients_;
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<uint64_t, std::string> ready_;
  uint64_t claimed_ = 0, written_ = 0;
  std::optional<Error> failed_;
};

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return text;
}

// How much of the partial file can be kept: all of it when it holds the same blob version and
// no more than the blob, else nothing.
uint64_t kept_bytes(const std::string& part, const BlobProperties& blob) {
  struct stat st {};
  if (::stat(part.c_str(), &st) != 0) return 0;
  if (read_text_file(part + ".etag") != blob.etag) return 0;
  auto size = static_cast<uint64_t>(st.st_size);
  return size <= blob.size ? size : 0;
}

Result<void> fetch_into(BlobClient& client, const std::string& container, const std::string& blob,
                        const BlobProperties& props, PartialFile& out, Digest& md5,
                        const TransferOptions& options) {
  RangeFetcher fetcher(client, container, blob, props.etag, out.size(), props.size,
                       std::max<uint64_t>(options.block_size, 1), std::max(options.parallel, 1));
  for (uint64_t i = 0; i < fetcher.count(); ++i) {
    auto data = fetcher.take(i);
    if (!data) return data.error();
    if (auto ok = out.append(*data); !ok) return ok;
    md5.update(*data);
    if (options.progress) options.progress(out.size(), props.size);
  }
  return {};
}

Result<void> check_whole(const BlobProperties& props, uint64_t size, const std::string& md5,
                         const std::string& what) {
  if (size != props.size)
    return make_error(ErrorKind::Parse,
                      fmt::format("{}: got {} bytes, the blob has {}", what, size, props.size));
  if (!props.content_md5.empty() && md5 != props.content_md5)
    return make_error(ErrorKind::Parse, fmt::format("{}: MD5 {} does not match the blob's {}", what,
                                                    md5, props.content_md5));
  return {};
}

}  // namespace

Result<TransferResult> download_blob(BlobClient& client, const std::string& container,
                                     const std::string& blob, const std::string& dest,
                                     const TransferOptions& options) {
  const std::string what = container + "/" + blob;
  auto props = client.properties(container, blob);
  if (!props) return make_error(props.error().kind, what + ": " + props.error().message);
  const std::string part = dest + kPartialSuffix;
  TransferResult result;
  result.resumed_from = kept_bytes(part, *props);
  if (result.resumed_from == 0) {
    if (auto ok = write_small_file(part + ".etag", props->etag); !ok) return ok.error();
  }
  auto out = PartialFile::open(part, result.resumed_from);
  if (!out) return out.error();
  Digest md5(Digest::Kind::Md5);
  if (auto ok = md5.update_from_file(part, result.resumed_from); !ok) return ok.error();
  if (auto ok = fetch_into(client, container, blob, *props, *out, md5, options); !ok)
    return make_error(ok.error().kind, what + ": " + ok.error().message);
  if (auto ok = out->finish(); !ok) return ok.error();
  result.bytes = out->size();
  result.content_md5 = md5.base64();
  if (auto ok = check_whole(*props, result.bytes, result.content_md5, what); !ok) {
    ::unlink(part.c_str());
    ::unlink((part + ".etag").c_str());
    return ok.error();
  }
  result.verified = !props->content_md5.empty();
  if (auto ok = commit_file(part, dest); !ok) return ok.error();
  ::unlink((part + ".etag").c_str());
  return result;
}

}  // namespace trainyard::azure
