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

Result<std::string> read_from(const std::string& path, int64_t offset, int64_t& size) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::string();  // not written yet
  struct stat st {};
  ::fstat(fd, &st);
  size = st.st_size;
  std::string out;
  if (size > offset) {
    out.resize(std::min<size_t>(static_cast<size_t>(size - offset), kMaxReadPerPoll));
    auto n = ::pread(fd, out.data(), out.size(), offset);
    out.resize(n > 0 ? static_cast<size_t>(n) : 0);
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

}  // namespace

LogMetricsFollower::LogMetricsFollower(Store& store, std::string account, std::string job,
                                       std::string task, std::string file, std::string path)
    : store_(store),
      account_(std::move(account)),
      job_(std::move(job)),
      task_(std::move(task)),
      file_(std::move(file)),
      path_(std::move(path)) {}

Result<void> LogMetricsFollower::add_patterns(const std::vector<MetricPattern>& patterns) {
  for (const auto& p : patterns) {
    if (auto r = parser_.add_pattern(p.name, p.regex); !r)
      return make_error(ErrorKind::Usage,
                        fmt::format("metric pattern '{}': {}", p.name, r.error().message));
  }
  return ok_result();
}

Result<void> LogMetricsFollower::load_offset() {
  if (loaded_) return ok_result();
  auto off = store_.log_offset(account_, job_, task_, file_);
  if (!off) return off.error();
  offset_ = *off;
  auto names = store_.metric_names(account_, job_, task_);
  if (names && !names->empty()) {
    auto pts = store_.metric_points(account_, job_, task_, names->front());
    if (pts) records_ = static_cast<int64_t>(pts->size());
  }
  loaded_ = true;
  return ok_result();
}

std::vector<MetricPoint> LogMetricsFollower::parse_records(std::string_view bytes) {
  std::vector<MetricPoint> out;
  auto now = SystemClock().now();
  size_t start = 0;
  while (start < bytes.size()) {
    size_t end = bytes.find_first_of("\r\n", start);
    if (end == std::string_view::npos) end = bytes.size();
    auto record = metric_text(bytes.substr(start, end - start));
    start = end + 1;
    if (record.find_first_not_of(' ') == std::string::npos) continue;
    auto parsed = parser_.parse_line(record);
    if (!parsed.empty()) ++records_;
    for (const auto& m : parsed) {
      double x = m.step ? static_cast<double>(*m.step) : static_cast<double>(records_);
      out.push_back(MetricPoint{m.name, x, m.value, now});
    }
  }
  return out;
}

Result<size_t> LogMetricsFollower::poll(bool final_pass) {
  if (auto r = load_offset(); !r) return r.error();
  int64_t size = 0;
  auto bytes = read_from(path_, offset_, size);
  if (!bytes) return bytes.error();
  if (size < offset_) {  // a new attempt replaced the file
    offset_ = 0;
    parser_.reset_position();
    bytes = read_from(path_, 0, size);
  }
  bool whole = final_pass && static_cast<int64_t>(bytes->size()) == size - offset_;
  size_t used = whole ? bytes->size() : last_record_end(*bytes);
  if (used == 0) return size_t{0};
  auto points = parse_records(std::string_view(*bytes).substr(0, used));
  auto r = store_.write([&]() -> Result<void> {
    if (!points.empty())
      if (auto a = store_.add_metric_points(account_, job_, task_, points); !a) return a;
    return store_.set_log_offset(account_, job_, task_, file_,
                                 offset_ + static_cast<int64_t>(used));
  });
  if (!r) return r.error();
  offset_ += static_cast<int64_t>(used);
  return points.size();
}

}  // namespace trainyard
