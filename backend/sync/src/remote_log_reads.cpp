// The requests of a remote log tail.
#include "remote_log_reads.hpp"

#include <charconv>

#include <fmt/format.h>

namespace trainyard::remote_log {

namespace {

bool starts_with(const std::string& s, std::string_view prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

// The file is not there (yet): Batch says FileNotFound, or that the task's state allows no
// file operation (before it is scheduled to a node).
bool missing_file(const Error& e) {
  return starts_with(e.message, "FileNotFound:") ||
         starts_with(e.message, "OperationInvalidForCurrentState:");
}

int64_t creation_seconds(const azure::HttpResponse& r) {
  auto t = azure::parse_http_date(r.header("ocp-creation-time"));
  if (!t) return 0;
  return std::chrono::duration_cast<std::chrono::seconds>(t->time_since_epoch()).count();
}

// The task or node a file path is under: "/jobs/J/tasks/T/files/P" → "/jobs/J/tasks/T".
std::string owner_of(const std::string& path) {
  auto files = path.find("/files/");
  return files == std::string::npos ? path : path.substr(0, files);
}

Result<std::optional<FileHead>> probe_missing(azure::BatchClient& client, const std::string& path) {
  // A HEAD answer has no body naming what is missing. Reading the task (or node) it is under
  // tells a file that is not there yet from a job, task, pool or node that does not exist, and
  // reads no byte of the file: one that appeared meanwhile is read whole by the next step.
  auto owner = client.call("GET", owner_of(path), {{"$select", "id"}});
  if (owner) return std::optional<FileHead>();
  return owner.error();
}

}  // namespace

Result<std::optional<FileHead>> head(azure::BatchClient& client, const std::string& path) {
  auto r = client.call("HEAD", path);
  if (!r) {
    auto kind = r.error().kind;
    if (kind != ErrorKind::NotFound && kind != ErrorKind::Conflict) return r.error();
    return probe_missing(client, path);
  }
  auto text = r->header("Content-Length");
  int64_t size = -1;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), size);
  if (ec != std::errc() || end != text.data() + text.size() || size < 0)
    return make_error(ErrorKind::Parse, fmt::format("{}: HEAD gave no Content-Length", path));
  return std::optional<FileHead>(FileHead{size, creation_seconds(*r)});
}

Result<Range> get_range(azure::BatchClient& client, const std::string& path, int64_t start,
                        int64_t end) {
  auto r =
      client.call("GET", path, {}, "", {{"ocp-range", fmt::format("bytes={}-{}", start, end)}});
  if (!r) {
    if (starts_with(r.error().message, "InvalidRange:") || missing_file(r.error())) return Range{};
    return r.error();
  }
  if (static_cast<int64_t>(r->body.size()) > end - start + 1)
    return make_error(ErrorKind::Parse,
                      fmt::format("{}: the service answered more than the ocp-range asked", path));
  return Range{std::move(r->body), creation_seconds(*r)};
}

}  // namespace trainyard::remote_log
