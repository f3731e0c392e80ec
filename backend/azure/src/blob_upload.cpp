// Uploading a file as a block blob: the calling thread reads blocks in order (hashing the whole
// file as it goes) and hands them to workers that stage them in parallel; the block list commits.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "azure/blob_transfer.hpp"
#include "blob_files.hpp"
#include "signing.hpp"

namespace trainyard::azure {

namespace {

// Same length for every block of a blob, as the service requires: base64 of a fixed-width index.
std::string block_id(uint64_t index) {
  auto raw = fmt::format("trainyard-{:010}", index);
  return signing::base64_encode(reinterpret_cast<const unsigned char*>(raw.data()), raw.size());
}

class BlockStager {
 public:
  BlockStager(BlobClient& client, const std::string& container, const std::string& blob,
              int parallel)
      : container_(container), blob_(blob) {
    for (int i = 0; i < parallel; ++i) clients_.push_back(client.sibling());
    for (auto& c : clients_) workers_.emplace_back([this, &c] { work(*c); });
  }
  ~BlockStager() {
    finish();
    for (auto& c : clients_) c->cancel();
    for (auto& w : workers_)
      if (w.joinable()) w.join();
  }

  /// Queues a block, waiting while kQueued are queued (read ahead of the workers, enough to keep
  /// them busy: reading a block takes far less than sending it); false once a block has failed.
  bool push(uint64_t index, std::string data) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return failed_ || queue_.size() < kQueued; });
    if (failed_) return false;
    queue_.emplace_back(index, std::move(data));
    changed_.notify_all();
    return true;
  }

  /// Waits until every queued block is staged (or one failed), telling `progress` as they are.
  Result<void> wait(const std::function<void(uint64_t)>& progress) {
    finish();
    std::unique_lock lock(mutex_);
    while (!failed_ && (busy_ > 0 || !queue_.empty())) {
      changed_.wait(lock);
      if (progress) progress(staged_bytes_);
    }
    if (failed_) return *failed_;
    return {};
  }

  uint64_t staged_bytes() {
    std::lock_guard lock(mutex_);
    return staged_bytes_;
  }

 private:
  void finish() {
    std::lock_guard lock(mutex_);
    done_ = true;
    changed_.notify_all();
  }

  void work(BlobClient& client) {
    while (true) {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] { return failed_ || done_ || !queue_.empty(); });
      if (failed_ || queue_.empty()) return;
      auto [index, data] = std::move(queue_.front());
      queue_.pop_front();
      ++busy_;
      changed_.notify_all();
      lock.unlock();
      const uint64_t size = data.size();
      auto ok = client.put_block(container_, blob_, block_id(index), std::move(data));
      lock.lock();
      --busy_;
      if (!ok && !failed_) failed_ = ok.error();
      if (ok) staged_bytes_ += size;
      changed_.notify_all();
    }
  }

  const std::string& container_;
  const std::string& blob_;
  static constexpr size_t kQueued = 2;
  std::vector<std::unique_ptr<BlobClient>> clients_;
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::pair<uint64_t, std::string>> queue_;
  int busy_ = 0;
  bool done_ = false;
  uint64_t staged_bytes_ = 0;
  std::optional<Error> failed_;
};

Result<std::string> read_block(int fd, uint64_t offset, uint64_t length, const std::string& path) {
  std::string data(length, '\0');
  uint64_t got = 0;
  while (got < length) {
    ssize_t n = ::pread(fd, data.data() + got, length - got, static_cast<off_t>(offset + got));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return file_error(path);
    if (n == 0) return make_error(ErrorKind::Io, path + ": changed while it was being uploaded");
    got += static_cast<uint64_t>(n);
  }
  return data;
}

struct OpenFile {
  int fd = -1;
  uint64_t size = 0;
  ~OpenFile() {
    if (fd >= 0) ::close(fd);
  }
};

Result<void> open_regular(const std::string& path, OpenFile& f) {
  f.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st {};
  if (f.fd < 0 || ::fstat(f.fd, &st) != 0) return file_error(path);
  if (!S_ISREG(st.st_mode)) return make_error(ErrorKind::Usage, path + ": not a regular file");
  f.size = static_cast<uint64_t>(st.st_size);
  return {};
}

Result<TransferResult> upload_in_blocks(BlobClient& client, const OpenFile& f,
                                        const std::string& path, const std::string& container,
                                        const std::string& blob, const TransferOptions& options,
                                        const std::string& type) {
  const uint64_t block = std::max<uint64_t>(options.block_size, 1);
  const uint64_t count = (f.size + block - 1) / block;
  Digest md5(Digest::Kind::Md5);
  std::vector<std::string> ids;
  BlockStager stager(client, container, blob, std::max(options.parallel, 1));
  for (uint64_t i = 0; i < count; ++i) {
    auto data = read_block(f.fd, i * block, std::min(block, f.size - i * block), path);
    if (!data) return data.error();
    md5.update(*data);
    ids.push_back(block_id(i));
    if (!stager.push(i, std::move(*data))) break;
    if (options.progress) options.progress(stager.staged_bytes(), f.size);
  }
  auto staged = stager.wait([&](uint64_t done) {
    if (options.progress) options.progress(done, f.size);
  });
  if (!staged) return staged.error();
  TransferResult result{f.size, 0, md5.base64(), false};
  if (auto ok = client.put_block_list(container, blob, ids, type, result.content_md5); !ok)
    return ok.error();
  return result;
}

}  // namespace

std::string content_type_for(const std::string& name) {
  static const std::pair<const char*, const char*> kTypes[] = {{".txt", "text/plain"},
                                                               {".log", "text/plain"},
                                                               {".csv", "text/csv"},
                                                               {".json", "application/json"},
                                                               {".jsonl", "application/x-ndjson"},
                                                               {".yaml", "text/yaml"},
                                                               {".yml", "text/yaml"},
                                                               {".py", "text/x-python"},
                                                               {".sh", "text/x-shellscript"},
                                                               {".png", "image/png"},
                                                               {".jpg", "image/jpeg"},
                                                               {".jpeg", "image/jpeg"},
                                                               {".html", "text/html"},
                                                               {".md", "text/markdown"}};
  for (const auto& [ext, type] : kTypes)
    if (name.ends_with(ext)) return type;
  return "application/octet-stream";
}

Result<TransferResult> upload_file(BlobClient& client, const std::string& path,
                                   const std::string& container, const std::string& blob,
                                   const TransferOptions& options,
                                   const std::string& content_type) {
  OpenFile f;
  if (auto ok = open_regular(path, f); !ok) return ok.error();
  const std::string type = content_type.empty() ? content_type_for(blob) : content_type;
  const std::string what = container + "/" + blob;
  if (f.size > std::max<uint64_t>(options.block_size, 1)) {
    auto r = upload_in_blocks(client, f, path, container, blob, options, type);
    if (!r) return make_error(r.error().kind, what + ": " + r.error().message);
    return r;
  }
  auto data = read_block(f.fd, 0, f.size, path);
  if (!data) return data.error();
  const std::string md5 = content_md5(*data);
  if (auto ok = client.put_blob(container, blob, std::move(*data), type); !ok)
    return make_error(ok.error().kind, what + ": " + ok.error().message);
  if (options.progress) options.progress(f.size, f.size);
  return TransferResult{f.size, 0, md5, false};
}

}  // namespace trainyard::azure
