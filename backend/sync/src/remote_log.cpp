// RemoteLogTail: ranged reads of a Batch file appended to a local copy, offset in the store.
#include "sync/remote_log.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>

#include <fmt/format.h>

#include "azure/parse.hpp"
#include "remote_log_paths.hpp"
#include "remote_log_reads.hpp"

namespace trainyard {

namespace fs = std::filesystem;

namespace {

// Bytes re-read before the offset to tell a replaced file from a grown one when the service
// gives no creation time (see the header).
constexpr int64_t kAnchorBytes = 64;
// A chunk must hold more than the anchor, or a read could never make progress.
constexpr uint64_t kMinChunkBytes = 4 * kAnchorBytes;
// Each metrics poll reads at most 4 MiB; a step's new bytes are drained in a bounded loop.
constexpr int kMaxMetricPolls = 64;

Error path_error(const fs::path& p, const char* what) {
  return make_error(ErrorKind::Io,
                    fmt::format("{}: {}: {}", p.string(), what, std::strerror(errno)));
}

// Closes the cache copy (and so releases its lock) however a read ends.
class FdGuard {
 public:
  explicit FdGuard(int fd) : fd_(fd) {}
  ~FdGuard() { ::close(fd_); }
  FdGuard(const FdGuard&) = delete;
  FdGuard& operator=(const FdGuard&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

// Creates `dir` and its missing parents, each 0700: the copies are the user's task output.
Result<void> make_private_dirs(const fs::path& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) == 0) return ok_result();
  if (dir.has_parent_path() && dir.parent_path() != dir)
    TY_TRY(make_private_dirs(dir.parent_path()));
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) return path_error(dir, "mkdir");
  ::chmod(dir.c_str(), 0700);  // whatever the umask
  return ok_result();
}

// Opens (creating, 0600) and exclusively locks the copy, so two tails never interleave appends.
Result<int> open_locked(const fs::path& path) {
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return path_error(path, "open");
  if (::fchmod(fd, 0600) != 0 || ::flock(fd, LOCK_EX) != 0) {
    auto e = path_error(path, "lock");
    ::close(fd);
    return e;
  }
  return fd;
}

Result<void> write_all(int fd, std::string_view data, int64_t offset, const fs::path& path) {
  while (!data.empty()) {
    auto n = ::pwrite(fd, data.data(), data.size(), offset);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return path_error(path, "write");
    data.remove_prefix(static_cast<size_t>(n));
    offset += n;
  }
  // On disk before the offset is recorded: a crash then leaves offset <= copy size.
  if (::fdatasync(fd) != 0) return path_error(path, "fdatasync");
  return ok_result();
}

}  // namespace

struct RemoteLogTail::State {
  Store* store;
  azure::BatchClient* client;
  RemoteFileRef ref;
  RemoteLogOptions opts;
  fs::path cache;
  std::string rest;
  remote_log::OffsetKey key;
  std::string created_key;  // the store's key of the copied file's creation time
  int64_t offset = 0;       // how far the copy is complete, during a read
  int64_t created = 0;      // the copied file's creation time (Unix seconds); 0: unknown
  std::unique_ptr<LogMetricsFollower> metrics;
  int64_t metrics_seen = -1;  // the metrics offset as this tail last saw it in the store

  Result<TailStep> read(bool final_pass);
  Result<void> reconcile(int fd);
  Result<TailStep> fetch(int fd, bool final_pass);
  Result<void> check_replaced(int fd, const remote_log::FileHead& head, TailStep& st);
  Result<void> copy_new(int fd, const remote_log::FileHead& head, bool verify, bool final_pass,
                        TailStep& st);
  Result<bool> anchor_matches(int fd, int64_t start, const std::string& body, int64_t anchor);
  Result<void> append(int fd, std::string_view bytes);
  Result<void> restart(int fd);
  Result<void> record() {
    return store->set_log_offset(ref.account, key.job, key.task, key.file, offset);
  }
  Result<int64_t> metrics_offset() {
    return store->log_offset(ref.account, ref.job, ref.task, ref.path);
  }
  Result<void> feed_metrics(bool final_pass);
  Result<void> reset_metrics();
};

Result<TailStep> RemoteLogTail::State::read(bool final_pass) {
  TY_TRY(make_private_dirs(cache.parent_path()));
  auto fd = open_locked(cache);
  if (!fd) return fd.error();
  FdGuard guard(*fd);
  TY_TRY(reconcile(guard.get()));
  auto st = fetch(guard.get(), final_pass);
  if (!st) return st;
  if (!st->missing && !opts.deferred_metrics) TY_TRY(feed_metrics(final_pass));
  // The last read of a completed task's file that reached its end (or found none): nobody need
  // read it again while the task stays as it ended.
  const bool whole = st->missing || offset == static_cast<int64_t>(st->remote_size);
  if (final_pass && whole && !ref.is_node_file())
    TY_TRY(store->mark_task_log_final(ref.account, ref.job, ref.task, ref.path));
  return st;
}

// The copy and the stored offset agree after this: a longer copy (a crash between append and
// record) is cut back, a shorter one (deleted by hand) lowers the offset.
Result<void> RemoteLogTail::State::reconcile(int fd) {
  auto stored = store->log_offset(ref.account, key.job, key.task, key.file);
  if (!stored) return stored.error();
  offset = std::max<int64_t>(0, *stored);
  auto when = store->log_offset(ref.account, key.job, key.task, created_key);
  if (!when) return when.error();
  created = *when;
  struct stat st {};
  if (::fstat(fd, &st) != 0) return path_error(cache, "stat");
  if (st.st_size > offset && ::ftruncate(fd, offset) != 0) return path_error(cache, "truncate");
  if (st.st_size >= offset) return ok_result();
  offset = st.st_size;
  return record();
}

Result<TailStep> RemoteLogTail::State::fetch(int fd, bool final_pass) {
  TailStep st;
  auto head = remote_log::head(*client, rest);
  if (!head) return head.error();
  if (!*head) {
    st.missing = true;
    return st;
  }
  st.remote_size = static_cast<uint64_t>((*head)->size);
  // Without creation times on both sides, the bytes before the offset tell whether it is the
  // file copied (a copy begun before they were kept, or a service that sends none).
  const bool by_content = created == 0 || (*head)->created == 0;
  TY_TRY(check_replaced(fd, **head, st));
  TY_TRY(copy_new(fd, **head, by_content && offset > 0, final_pass, st));
  return st;
}

// A file shorter than the copy, or created at another time than the one copied, is a new file:
// the copy restarts. The creation time is recorded with the copy.
Result<void> RemoteLogTail::State::check_replaced(int fd, const remote_log::FileHead& head,
                                                  TailStep& st) {
  const bool recreated = head.created != 0 && created != 0 && head.created != created;
  if (head.size < offset || recreated) {
    TY_TRY(restart(fd));
    st.reset = true;
  }
  if (head.created == created) return ok_result();
  created = head.created;
  return store->set_log_offset(ref.account, key.job, key.task, created_key, created);
}

// Reads [offset, size) in chunks (a step: at most max_step_bytes, unless final). With `verify`,
// the first request re-reads up to kAnchorBytes before the offset to check that the remote file
// is still the one copied.
Result<void> RemoteLogTail::State::copy_new(int fd, const remote_log::FileHead& head, bool verify,
                                            bool final_pass, TailStep& st) {
  const auto chunk = static_cast<int64_t>(std::max(opts.chunk_bytes, kMinChunkBytes));
  const auto budget = final_pass ? 0 : opts.max_step_bytes;
  while (offset < head.size) {
    if (budget != 0 && st.new_bytes >= budget) {
      st.more = true;
      break;
    }
    const int64_t anchor = verify ? std::min(offset, kAnchorBytes) : 0;
    const int64_t start = offset - anchor;
    auto got = remote_log::get_range(*client, rest, start, std::min(head.size, start + chunk) - 1);
    if (!got) return got.error();
    // Replaced since the HEAD: the next step restarts the copy.
    if (got->created != 0 && head.created != 0 && got->created != head.created) break;
    const std::string& body = got->body;
    if (verify) {
      verify = false;
      auto same = anchor_matches(fd, start, body, anchor);
      if (!same) return same.error();
      if (!*same) {
        TY_TRY(restart(fd));
        st.reset = true;
        continue;
      }
    }
    if (static_cast<int64_t>(body.size()) <= anchor) break;  // shrunk since HEAD: next step
    auto fresh = std::string_view(body).substr(static_cast<size_t>(anchor));
    TY_TRY(append(fd, fresh));
    st.new_bytes += fresh.size();
  }
  return ok_result();
}

Result<bool> RemoteLogTail::State::anchor_matches(int fd, int64_t start, const std::string& body,
                                                  int64_t anchor) {
  if (static_cast<int64_t>(body.size()) < anchor) return false;
  std::string mine(static_cast<size_t>(anchor), '\0');
  auto n = ::pread(fd, mine.data(), mine.size(), start);
  if (n < 0) return path_error(cache, "read");
  return n == anchor && body.compare(0, mine.size(), mine) == 0;
}

Result<void> RemoteLogTail::State::append(int fd, std::string_view bytes) {
  TY_TRY(write_all(fd, bytes, offset, cache));
  offset += static_cast<int64_t>(bytes.size());
  return record();
}

Result<void> RemoteLogTail::State::restart(int fd) {
  if (::ftruncate(fd, 0) != 0) return path_error(cache, "truncate");
  offset = 0;
  TY_TRY(record());
  return reset_metrics();
}

// A new file's records are parsed from its start, as a local retry's are.
Result<void> RemoteLogTail::State::reset_metrics() {
  metrics.reset();
  metrics_seen = -1;
  if (!opts.metrics || !remote_log::is_task_log(ref)) return ok_result();
  return store->set_log_offset(ref.account, ref.job, ref.task, ref.path, 0);
}

Result<void> RemoteLogTail::State::feed_metrics(bool final_pass) {
  if (!opts.metrics || !remote_log::is_task_log(ref)) return ok_result();
  auto stored = metrics_offset();
  if (!stored) return stored.error();
  // Another process moved the offset: a fresh follower starts from where it left it.
  if (!metrics || *stored != metrics_seen) {
    metrics = std::make_unique<LogMetricsFollower>(*store, ref.account, ref.job, ref.task, ref.path,
                                                   cache.string(), AttemptSource::FileChanges);
    // As for local runs: a bad user pattern is reported by the settings, not on every read.
    (void)metrics->add_patterns(opts.metric_patterns);
  }
  metrics_seen = *stored;
  for (int i = 0; i < kMaxMetricPolls && metrics_seen < offset; ++i) {
    if (auto polled = metrics->poll(final_pass); !polled) return polled.error();
    auto now = metrics_offset();
    if (!now) return now.error();
    if (*now == metrics_seen) break;
    metrics_seen = *now;
  }
  return ok_result();
}

RemoteLogTail::RemoteLogTail(std::unique_ptr<State> state) : s_(std::move(state)) {}
RemoteLogTail::~RemoteLogTail() = default;
RemoteLogTail::RemoteLogTail(RemoteLogTail&&) noexcept = default;
RemoteLogTail& RemoteLogTail::operator=(RemoteLogTail&&) noexcept = default;

Result<RemoteLogTail> RemoteLogTail::open(Store& store, azure::BatchClient& client,
                                          const std::string& data_dir, RemoteFileRef ref,
                                          RemoteLogOptions options) {
  auto cache = remote_cache_path(data_dir, ref);
  if (!cache) return cache.error();
  auto s = std::make_unique<State>();
  s->store = &store;
  s->client = &client;
  s->rest = remote_log::rest_path(ref);
  s->key = remote_log::cache_offset_key(ref);
  s->created_key = remote_log::created_offset_key(ref);
  s->ref = std::move(ref);
  s->opts = std::move(options);
  s->cache = std::move(*cache);
  return RemoteLogTail(std::move(s));
}

Result<TailStep> RemoteLogTail::step() {
  return s_->read(false);
}

Result<TailStep> RemoteLogTail::finish() {
  return s_->read(true);
}

Result<void> RemoteLogTail::feed_metrics(bool final_pass) {
  return s_->feed_metrics(final_pass);
}

const fs::path& RemoteLogTail::cache_path() const {
  return s_->cache;
}

const RemoteFileRef& RemoteLogTail::ref() const {
  return s_->ref;
}

}  // namespace trainyard
