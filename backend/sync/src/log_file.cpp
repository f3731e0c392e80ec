// LogFile: opening, the sparse line index, refresh (growth, truncation, rotation), line reads.
#include "sync/log_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>

#include "log_file_state.hpp"

namespace trainyard {

Fd::~Fd() {
  if (fd_ >= 0) ::close(fd_);
}

Fd& Fd::operator=(Fd&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(o.fd_, -1);
  }
  return *this;
}

namespace {

Error io_error(const std::filesystem::path& path, const char* what) {
  return make_error(ErrorKind::Io,
                    std::string(what) + " " + path.string() + ": " + std::strerror(errno));
}

// Opens path for reading and records its identity.
Result<void> open_into(LogFileState& s) {
  Fd fd(::open(s.path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return io_error(s.path, "cannot open");
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return io_error(s.path, "cannot stat");
  s.fd = std::move(fd);
  s.dev = st.st_dev;
  s.ino = st.st_ino;
  return ok_result();
}

void clear_index(LogFileState& s) {
  s.indexed = s.newlines = s.last_line_start = 0;
  s.checkpoints.assign(1, 0);
  s.last_byte = 0;
  s.buf_len = 0;
  s.last_read = {};
}

// Whether the indexed prefix can no longer be trusted (shrunk, rewritten or replaced).
Result<bool> index_invalid(LogFileState& s, uint64_t size) {
  struct stat st {};
  if (::stat(s.path.c_str(), &st) == 0 && (st.st_dev != s.dev || st.st_ino != s.ino)) return true;
  if (size < s.indexed) return true;
  if (s.indexed == 0) return false;
  char b = 0;
  auto n = pread_full(s.fd.get(), &b, 1, s.indexed - 1);
  if (!n) return n.error();
  return *n != 1 || b != s.last_byte;
}

// Records the line starts in data (which begins at file offset off).
void index_bytes(LogFileState& s, const char* data, size_t len, uint64_t off) {
  const char* p = data;
  const char* end = data + len;
  while (const void* hit = std::memchr(p, '\n', static_cast<size_t>(end - p))) {
    p = static_cast<const char*>(hit) + 1;
    uint64_t start = off + static_cast<uint64_t>(p - data);
    ++s.newlines;
    s.last_line_start = start;
    if (s.newlines % s.options.checkpoint_every == 0) s.checkpoints.push_back(start);
  }
  if (len > 0) s.last_byte = data[len - 1];
  s.indexed = off + len;
}

}  // namespace

Result<size_t> pread_full(int fd, char* out, size_t n, uint64_t off) {
  size_t got = 0;
  while (got < n) {
    ssize_t r = ::pread(fd, out + got, n - got, static_cast<off_t>(off + got));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0)
      return make_error(ErrorKind::Io, std::string("read failed: ") + std::strerror(errno));
    if (r == 0) break;
    got += static_cast<size_t>(r);
  }
  return got;
}

Result<const char*> buffer_at(LogFileState& s, uint64_t pos, size_t& avail) {
  if (pos < s.buf_off || pos >= s.buf_off + s.buf_len) {
    s.buf.resize(s.options.chunk_bytes);
    size_t want =
        static_cast<size_t>(std::min<uint64_t>(s.buf.size(), s.indexed - std::min(pos, s.indexed)));
    auto n = pread_full(s.fd.get(), s.buf.data(), want, pos);
    if (!n) return n.error();
    s.buf_off = pos;
    s.buf_len = *n;
  }
  uint64_t end = std::min(s.buf_off + s.buf_len, s.indexed);
  avail = pos < end ? static_cast<size_t>(end - pos) : 0;
  return s.buf.data() + (pos - s.buf_off);
}

LogFile::LogFile(std::unique_ptr<LogFileState> state) : s_(std::move(state)) {}
LogFile::~LogFile() = default;
LogFile::LogFile(LogFile&&) noexcept = default;
LogFile& LogFile::operator=(LogFile&&) noexcept = default;

Result<LogFile> LogFile::open_lazy(const std::filesystem::path& path, LogFileOptions options) {
  auto s = std::make_unique<LogFileState>();
  s->path = path;
  options.checkpoint_every = std::max<size_t>(1, options.checkpoint_every);
  options.chunk_bytes = std::max<size_t>(64, options.chunk_bytes);
  s->options = options;
  if (auto r = open_into(*s); !r) return r.error();
  return LogFile(std::move(s));
}

Result<LogFile> LogFile::open(const std::filesystem::path& path, LogFileOptions options) {
  auto file = open_lazy(path, options);
  if (!file) return file;
  if (auto r = file->refresh(); !r) return r.error();
  return file;
}

Result<LogRefresh> LogFile::refresh(uint64_t max_bytes) {
  LogFileState& s = *s_;
  LogRefresh out;
  struct stat st {};
  if (::fstat(s.fd.get(), &st) != 0) return io_error(s.path, "cannot stat");
  auto invalid = index_invalid(s, static_cast<uint64_t>(st.st_size));
  if (!invalid) return invalid.error();
  if (*invalid) {
    out.reset = true;
    clear_index(s);
    if (auto r = open_into(s); !r) return r.error();
    if (::fstat(s.fd.get(), &st) != 0) return io_error(s.path, "cannot stat");
  }
  uint64_t size = static_cast<uint64_t>(st.st_size);
  uint64_t stop = size - s.indexed > max_bytes ? s.indexed + max_bytes : size;
  s.buf.resize(s.options.chunk_bytes);
  s.buf_len = 0;  // the buffer is reused for indexing
  while (s.indexed < stop) {
    size_t want = static_cast<size_t>(std::min<uint64_t>(s.buf.size(), stop - s.indexed));
    auto n = pread_full(s.fd.get(), s.buf.data(), want, s.indexed);
    if (!n) return n.error();
    if (*n == 0) break;  // shrank while reading; the next refresh notices
    out.new_bytes += *n;
    index_bytes(s, s.buf.data(), *n, s.indexed);
  }
  out.complete = s.indexed >= size;
  return out;
}

size_t LogFile::line_count() const {
  return static_cast<size_t>(s_->newlines + (s_->indexed > s_->last_line_start ? 1 : 0));
}

uint64_t LogFile::indexed_bytes() const {
  return s_->indexed;
}

size_t LogFile::checkpoint_count() const {
  return s_->checkpoints.size();
}

Result<uint64_t> LogFile::line_start(size_t line) {
  LogFileState& s = *s_;
  if (line >= s.newlines) return s.last_line_start;
  size_t k = line / s.options.checkpoint_every;
  uint64_t pos = s.checkpoints[k];
  for (size_t skip = line - k * s.options.checkpoint_every; skip > 0;) {
    size_t avail = 0;
    auto p = buffer_at(s, pos, avail);
    if (!p) return p.error();
    if (avail == 0) return make_error(ErrorKind::Io, "log file changed while reading");
    const char* nl = static_cast<const char*>(std::memchr(*p, '\n', avail));
    pos += nl ? static_cast<uint64_t>(nl - *p) + 1 : avail;
    if (nl) --skip;
  }
  return pos;
}

namespace {

// Sanitizes the raw line at pos; returns the offset after its '\n' (or the indexed end).
Result<uint64_t> read_one(LogFileState& s, uint64_t pos, SanitizedLine& out) {
  Sanitizer san(s.options.sanitizer);
  uint64_t fed = 0;
  bool cut = false;
  std::vector<SanitizedLine> pieces;
  for (;;) {
    size_t avail = 0;
    auto p = buffer_at(s, pos, avail);
    if (!p) return p.error();
    if (avail == 0) break;
    const char* nl = static_cast<const char*>(std::memchr(*p, '\n', avail));
    size_t len = nl ? static_cast<size_t>(nl - *p) : avail;
    // Past the caps only the end of the line is looked for; nothing more is kept.
    if (!cut && pieces.empty()) {
      size_t take = static_cast<size_t>(std::min<uint64_t>(len, s.options.max_line_bytes - fed));
      san.feed(std::string_view(*p, take));
      fed += take;
      cut = fed >= s.options.max_line_bytes && take < len;
      pieces = san.take_lines();
    }
    pos += len + (nl ? 1 : 0);
    if (nl) break;
  }
  if (pieces.empty()) {
    san.finish();
    pieces = san.take_lines();
  }
  out = pieces.empty() ? SanitizedLine{} : std::move(pieces.front());
  out.split = out.split || cut;
  return pos;
}

}  // namespace

// A followed log is drawn several times a second with the same lines on screen, shifted: lines
// the last read sanitized are taken from it (a line ended by '\n' never changes until the index
// is cleared), so only new lines are read and sanitized.
Result<std::vector<SanitizedLine>> LogFile::read_lines(size_t first, size_t count,
                                                       std::vector<uint64_t>* starts) {
  std::vector<SanitizedLine> out;
  if (starts) starts->clear();
  size_t total = line_count();
  if (first >= total) return out;
  count = std::min(count, total - first);
  const ReadLines& last = s_->last_read;
  ReadLines kept{first, {}, 0, {}};
  std::optional<uint64_t> at;
  out.resize(count);
  for (size_t i = 0; i < count; ++i) {
    size_t line = first + i;
    uint64_t start = 0, next = 0;
    if (last.holds(line)) {
      size_t k = line - last.first;
      start = last.starts[k];
      next = k + 1 < last.starts.size() ? last.starts[k + 1] : last.end;
      out[i] = last.lines[k];
    } else {
      if (!at) {
        auto pos = line_start(line);
        if (!pos) return pos.error();
        at = *pos;
      }
      start = *at;
      auto after = read_one(*s_, start, out[i]);
      if (!after) return after.error();
      next = *after;
    }
    at = next;
    if (starts) starts->push_back(start);
    if (line < s_->newlines && kept.first + kept.lines.size() == line) {
      kept.starts.push_back(start);
      kept.lines.push_back(out[i]);
      kept.end = next;
    }
  }
  s_->last_read = std::move(kept);
  return out;
}

}  // namespace trainyard
