// Checking a RemoteFileRef and the names derived from it.
#include <fmt/format.h>

#include "azure/http.hpp"
#include "remote_log_paths.hpp"
#include "sync/remote_log.hpp"

namespace trainyard {
namespace {

constexpr size_t kMaxIdLength = 64;
constexpr size_t kMaxPathLength = 1024;

Error usage(std::string message) {
  return make_error(ErrorKind::Usage, std::move(message));
}

bool id_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_';
}

Result<void> check_id(const char* what, const std::string& id) {
  if (id.empty() || id.size() > kMaxIdLength)
    return usage(fmt::format("{} id must have 1 to {} characters", what, kMaxIdLength));
  for (char c : id) {
    if (!id_char(c))
      return usage(
          fmt::format("{} id '{}': only letters, digits, '-' and '_' are allowed", what, id));
  }
  return ok_result();
}

// Each segment becomes a directory or file name under the cache, so none may climb out of it.
Result<void> check_path(const std::string& path) {
  if (path.empty() || path.size() > kMaxPathLength)
    return usage(fmt::format("file path must have 1 to {} characters", kMaxPathLength));
  for (char c : path) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      return usage("file path holds a control character");
  }
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    auto seg = std::string_view(path).substr(start, end - start);
    if (seg.empty() || seg == "." || seg == "..")
      return usage(
          fmt::format("file path '{}': empty, '.' and '..' segments are not allowed", path));
    start = end + 1;
  }
  return ok_result();
}

}  // namespace

Result<void> check_remote_file_ref(const RemoteFileRef& ref) {
  TY_TRY(check_id("account", ref.account));
  bool task_file = !ref.job.empty() || !ref.task.empty();
  if (task_file == ref.is_node_file())
    return usage("name either a task's file (job and task) or a node's file (pool and node)");
  if (task_file) {
    TY_TRY(check_id("job", ref.job));
    TY_TRY(check_id("task", ref.task));
  } else {
    TY_TRY(check_id("pool", ref.pool));
    TY_TRY(check_id("node", ref.node));
  }
  return check_path(ref.path);
}

Result<std::filesystem::path> remote_cache_path(const std::string& data_dir,
                                                const RemoteFileRef& ref) {
  if (data_dir.empty()) return usage("no data directory");
  TY_TRY(check_remote_file_ref(ref));
  std::filesystem::path p = std::filesystem::path(data_dir) / "remote" / ref.account;
  if (ref.is_node_file())
    p = p / "pools" / ref.pool / "nodes" / ref.node;
  else
    p = p / "jobs" / ref.job / ref.task;
  return p / ref.path;
}

namespace remote_log {

std::string rest_path(const RemoteFileRef& ref) {
  using azure::url_encode;
  if (ref.is_node_file())
    return fmt::format("/pools/{}/nodes/{}/files/{}", url_encode(ref.pool), url_encode(ref.node),
                       azure::url_encode_path(ref.path));
  return fmt::format("/jobs/{}/tasks/{}/files/{}", url_encode(ref.job), url_encode(ref.task),
                     azure::url_encode_path(ref.path));
}

OffsetKey cache_offset_key(const RemoteFileRef& ref) {
  if (ref.is_node_file())
    return {"", "", fmt::format("node:{}/{}/{}", ref.pool, ref.node, ref.path)};
  return {ref.job, ref.task, "cache:" + ref.path};
}

std::string created_offset_key(const RemoteFileRef& ref) {
  if (ref.is_node_file()) return fmt::format("node-created:{}/{}/{}", ref.pool, ref.node, ref.path);
  return "created:" + ref.path;
}

bool is_task_log(const RemoteFileRef& ref) {
  return !ref.is_node_file() && (ref.path == "stdout.txt" || ref.path == "stderr.txt");
}

}  // namespace remote_log
}  // namespace trainyard
