#include "sync/log_metrics.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "core/sanitizer.hpp"

namespace trainyard {
namespace {

// Reading is bounded per poll so a burst of output never stalls the caller.
constexpr size_t kMaxReadPerPoll = 4u << 20;
// A stream resumed before its first metric point is read again from its start up to this size:
// the values its prelude held (parameters until a second line names them) lived only in the
// reader that stopped. A longer prelude is a log without metrics, not worth reading twice.
constexpr int64_t kPreludeRereadBytes = 1 << 20;

using FileId = std::pair<uint64_t, uint64_t>;

struct FileRead {
  std::string bytes;
  int64_t size = 0;
  std::optional<FileId> id;  ///< none while the file does not exist
};

FileRead read_from(const std::string& path, int64_t offset) {
  FileRead out;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return out;  // not written yet
  struct stat st {};
  if (::fstat(fd, &st) == 0) {
    out.size = st.st_size;
    out.id = FileId{static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino)};
  }
  if (out.size > offset) {
    out.bytes.resize(std::min<size_t>(static_cast<size_t>(out.size - offset), kMaxReadPerPoll));
    auto n = ::pread(fd, out.bytes.data(), out.bytes.size(), offset);
    out.bytes.resize(n > 0 ? static_cast<size_t>(n) : 0);
  }
  ::close(fd);
  return out;
}

// The record's text with every placeholder (a control sequence the sanitizer made inert)
// replaced by a space, so `\e]0;x\aloss=1` still reads as a separate `loss=1`.
std::string metric_text(std::string_view record) {
  SanitizerOptions opts;
  opts.terminal_motion = false;
  std::string out;
  for (const auto& line : sanitize_lines(record, opts)) {
    size_t pos = 0;
    for (const auto& span : line.spans) {
      if (!span.placeholder) continue;
      out.append(line.text, pos, span.begin - pos);
      out += ' ';
      pos = span.end;
    }
    out.append(line.text, pos);
    out += ' ';
  }
  return out;
}

size_t last_record_end(std::string_view bytes) {
  auto pos = bytes.find_last_of("\r\n");
  return pos == std::string_view::npos ? 0 : pos + 1;
}

std::string stream_of(const std::string& file) {
  return file.find("stderr") != std::string::npos ? "stderr" : "stdout";
}

}  // namespace

struct LogMetricsFollower::Chunk {
  std::vector<MetricPoint> points;
  std::vector<NameValue> parameters;
  std::vector<std::string> not_parameters;
};

LogMetricsFollower::LogMetricsFollower(Store& store, std::string account, std::string job,
                                       std::string task, std::string file, std::string path,
                                       AttemptSource attempts)
    : store_(store),
      account_(std::move(account)),
      job_(std::move(job)),
      task_(std::move(task)),
      file_(std::move(file)),
      path_(std::move(path)),
      stream_(stream_of(file_)),
      attempts_(attempts) {}

Result<void> LogMetricsFollower::add_patterns(const std::vector<MetricPattern>& patterns) {
  for (const auto& p : patterns) {
    if (auto r = parser_.add_pattern(p.name, p.regex); !r)
      return make_error(ErrorKind::Usage,
                        fmt::format("metric pattern '{}': {}", p.name, r.error().message));
  }
  return ok_result();
}

// Picks up where the store says this stream is: its offset, its latest attempt and that
// attempt's last x position.
Result<void> LogMetricsFollower::load() {
  if (loaded_) return ok_result();
  auto off = store_.log_offset(account_, job_, task_, file_);
  if (!off) return off.error();
  offset_ = *off;
  auto series = store_.metric_series(account_, job_, task_);
  if (!series) return series.error();
  std::optional<int> latest;
  for (const auto& s : *series)
    if (s.stream == stream_) latest = std::max(latest.value_or(0), s.attempt);
  if (!latest) {
    auto floor = store_.current_attempt(account_, job_, task_);
    if (!floor) return floor.error();
    attempt_ = *floor;
    // Its parameters are written again (the same values); no point was written before.
    if (offset_ <= kPreludeRereadBytes) offset_ = 0;
  } else if (offset_ == 0) {
    attempt_ = *latest + 1;  // read again from its start: the file is a new attempt's
  } else {
    attempt_ = *latest;
    attempt_has_points_ = true;
    parser_.end_prelude();
    for (const auto& s : *series) {
      if (s.stream != stream_ || s.attempt != attempt_) continue;
      auto last = store_.metric_tail(account_, job_, task_, s.name, stream_, attempt_, 1);
      if (last && !last->empty())
        records_ = std::max(records_, static_cast<int64_t>(last->back().step));
    }
  }
  loaded_ = true;
  return ok_result();
}

Result<void> LogMetricsFollower::follow_stored_attempt() {
  if (attempts_ != AttemptSource::Stored) return ok_result();
  auto stored = store_.current_attempt(account_, job_, task_);
  if (!stored) return stored.error();
  if (*stored > attempt_) start_attempt(*stored);
  return ok_result();
}

void LogMetricsFollower::start_attempt(int attempt) {
  attempt_ = attempt;
  attempt_has_points_ = false;
  records_ = 0;
  parser_.restart();
}

void LogMetricsFollower::parse_records(std::string_view bytes, Chunk& out) {
  auto now = SystemClock().now();
  size_t start = 0;
  while (start < bytes.size()) {
    size_t end = bytes.find_first_of("\r\n", start);
    if (end == std::string_view::npos) end = bytes.size();
    auto record = metric_text(bytes.substr(start, end - start));
    start = end + 1;
    if (record.find_first_not_of(' ') == std::string::npos) continue;
    auto parsed = parser_.parse(record);
    for (auto& r : parsed.records) {
      ++records_;
      for (const auto& m : r.metrics) {
        double x = r.own_epoch ? *r.own_epoch
                   : m.step    ? static_cast<double>(*m.step)
                               : static_cast<double>(records_);
        out.points.push_back(
            MetricPoint{m.name, x, m.value, now, stream_, attempt_, m.epoch.has_value()});
      }
    }
    for (auto& p : parsed.parameters) out.parameters.push_back(std::move(p));
    for (auto& n : parsed.not_parameters) out.not_parameters.push_back(std::move(n));
  }
}

Result<void> LogMetricsFollower::store_chunk(const Chunk& chunk, int64_t new_offset) {
  return store_.write([&]() -> Result<void> {
    if (!chunk.points.empty())
      TY_TRY(store_.add_metric_points(account_, job_, task_, chunk.points));
    for (const auto& p : chunk.parameters)
      TY_TRY(store_.set_output_parameter(account_, job_, task_, p));
    for (const auto& n : chunk.not_parameters)
      TY_TRY(store_.remove_output_parameter(account_, job_, task_, n));
    if (restarted_) TY_TRY(store_.clear_log_marks(account_, job_, task_, file_));
    TY_TRY(store_.add_log_mark(account_, job_, task_, file_, {new_offset, SystemClock().now()}));
    return store_.set_log_offset(account_, job_, task_, file_, new_offset);
  });
}

// One bounded read; `more` says whether the file holds more than was read.
Result<size_t> LogMetricsFollower::poll_once(bool final_pass, bool& more) {
  more = false;
  auto f = read_from(path_, offset_);
  if (!f.id) return size_t{0};
  bool replaced = (file_id_ && *f.id != *file_id_) || f.size < offset_;
  file_id_ = f.id;
  if (replaced) {
    // Another file: a new attempt's, unless this attempt has just begun and printed nothing.
    if (attempt_has_points_) start_attempt(attempt_ + 1);
    offset_ = 0;
    restarted_ = true;  // the old file's read marks go with the next chunk stored
    parser_.reset_position();
    f = read_from(path_, 0);
  }
  bool whole = final_pass && static_cast<int64_t>(f.bytes.size()) == f.size - offset_;
  size_t used = whole ? f.bytes.size() : last_record_end(f.bytes);
  more = used > 0 && offset_ + static_cast<int64_t>(used) < f.size;
  if (used == 0) return size_t{0};
  Chunk chunk;
  parse_records(std::string_view(f.bytes).substr(0, used), chunk);
  TY_TRY(store_chunk(chunk, offset_ + static_cast<int64_t>(used)));
  restarted_ = false;
  offset_ += static_cast<int64_t>(used);
  attempt_has_points_ = attempt_has_points_ || !chunk.points.empty();
  return chunk.points.size();
}

Result<size_t> LogMetricsFollower::poll(bool final_pass) {
  TY_TRY(load());
  TY_TRY(follow_stored_attempt());
  size_t total = 0;
  bool more = true;
  while (more) {
    auto n = poll_once(final_pass, more);
    if (!n) return n.error();
    total += *n;
    more = more && final_pass;
  }
  return total;
}

}  // namespace trainyard
