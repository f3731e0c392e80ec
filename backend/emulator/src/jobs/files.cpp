// Task and node files: list, GET with `ocp-range`, HEAD, DELETE, served from node sandboxes.
#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "core/utf8.hpp"
#include "emulator/shared_key_check.hpp"
#include "file_api.hpp"
#include "sandbox.hpp"

namespace trainyard::emu {

namespace fs = std::filesystem;

namespace {

struct FileEntry {
  std::string name;  ///< relative to the listed root, '/'-separated
  struct stat st {};
};

// A relative path that stays inside its root: no absolute paths, no `..`.
bool safe_relative(const std::string& path) {
  if (path.empty() || path.front() == '/') return false;
  for (const auto& part : fs::path(path)) {
    if (part == "..") return false;
  }
  return true;
}

std::vector<FileEntry> list_tree(const std::string& root, bool recursive) {
  std::vector<FileEntry> out;
  std::error_code ec;
  auto add = [&](const fs::path& p) {
    FileEntry e;
    if (::stat(p.c_str(), &e.st) != 0) return;  // dangling: the run has not written it yet
    e.name = p.lexically_relative(root).generic_string();
    // A listing is JSON, which holds only UTF-8; a name with U+FFFD in place of its bad bytes
    // would name no file a client could then fetch. Left out (it is still read by its
    // percent-encoded bytes), and so is all under such a directory.
    if (first_invalid_utf8(e.name)) return;
    out.push_back(std::move(e));
  };
  if (recursive) {
    for (auto it = fs::recursive_directory_iterator(root, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      add(it->path());
      if (out.size() >= 100000) break;
    }
  } else {
    for (auto it = fs::directory_iterator(root, ec); !ec && it != fs::directory_iterator();
         it.increment(ec)) {
      add(it->path());
    }
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

Micros mtime_us(const struct stat& st) {
  return static_cast<Micros>(st.st_mtim.tv_sec) * 1000000 + st.st_mtim.tv_nsec / 1000;
}

std::string file_json(const FileEntry& e, const std::string& url_base) {
  bool dir = S_ISDIR(e.st.st_mode);
  nlohmann::json props{{"lastModified", format_time(mtime_us(e.st))},
                       {"contentLength", std::to_string(dir ? 0 : e.st.st_size)},
                       {"contentType", "application/octet-stream"},
                       {"fileMode", fmt::format("0o{:o}", e.st.st_mode)}};
  return nlohmann::json{{"name", e.name},
                        {"url", url_base + "/" + e.name},
                        {"isDirectory", dir},
                        {"properties", props}}
      .dump();
}

// Parses `bytes=a-b` / `bytes=a-`; false when malformed.
bool parse_range(const std::string& h, int64_t& start, int64_t& end) {
  if (h.rfind("bytes=", 0) != 0) return false;
  auto dash = h.find('-', 6);
  if (dash == std::string::npos) return false;
  try {
    start = std::stoll(h.substr(6, dash - 6));
    end = dash + 1 < h.size() ? std::stoll(h.substr(dash + 1)) : -1;
  } catch (...) {
    return false;
  }
  return start >= 0 && (end < 0 || end >= start);
}

// `ocp-creation-time` from the file's birth time, which appends leave alone (as on a node), so a
// client tells a replaced file from a grown one. Where the file system keeps no birth time the
// header is left out, as Batch does on Linux nodes.
void set_creation_time(Call& c, const std::string& path) {
  struct statx stx {};
  if (::statx(AT_FDCWD, path.c_str(), 0, STATX_BTIME, &stx) != 0 || !(stx.stx_mask & STATX_BTIME))
    return;
  const auto seconds = static_cast<Micros>(stx.stx_btime.tv_sec);
  c.res.set_header("ocp-creation-time", format_rfc1123(from_micros(seconds * 1000000)));
}

}  // namespace

void serve_file(Call& c, const std::string& root, const std::string& rel, const std::string& url) {
  if (!safe_relative(rel)) return c.error(errors::kFileNotFound);
  const std::string path = root + "/" + rel;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return c.error(errors::kFileNotFound);
  if (c.req.method == "DELETE") {
    std::error_code ec;
    bool recursive = c.param("recursive") == "true";
    if (S_ISDIR(st.st_mode) && !recursive && !fs::is_empty(path, ec)) {
      return c.error(errors::kDirectoryNotEmpty);
    }
    fs::remove_all(path, ec);
    return c.empty(200);
  }
  Versioned v;
  v.last_modified = mtime_us(st);
  v.etag = fmt::format("0x{:X}", 0x8D000000000000ULL + static_cast<uint64_t>(v.last_modified));
  if (!c.conditions_pass(v, false)) return;
  bool dir = S_ISDIR(st.st_mode);
  c.res.set_header("ocp-batch-file-isdirectory", dir ? "true" : "false");
  c.res.set_header("ocp-batch-file-url", url);
  c.res.set_header("ocp-batch-file-mode", fmt::format("0o{:o}", st.st_mode));
  set_creation_time(c, path);
  c.version_headers(v);
  int64_t size = dir ? 0 : st.st_size, start = 0, end = size - 1;
  if (c.req.has_header("ocp-range")) {
    if (!parse_range(c.req.get_header_value("ocp-range"), start, end)) {
      return c.error(
          errors::kInvalidHeader,
          {{"HeaderName", "ocp-range"}, {"HeaderValue", c.req.get_header_value("ocp-range")}});
    }
    if (start > size) {
      return c.error(errors::kInvalidRange);
    }
    if (end < 0 || end >= size) end = size - 1;
  }
  const int64_t length = std::max<int64_t>(0, end - start + 1);
  if (c.req.method == "HEAD") {
    c.res.status = 200;
    c.res.set_header("Content-Length", std::to_string(size));
    c.res.set_header("Content-Type", "application/octet-stream");
    return;
  }
  std::string data(static_cast<size_t>(length), '\0');
  std::ifstream in(path, std::ios::binary);
  in.seekg(start);
  in.read(data.data(), length);
  data.resize(static_cast<size_t>(in.gcount()));
  c.res.status = 200;
  c.res.set_content(std::move(data), "application/octet-stream");
}

void list_files(Call& c, const std::string& root, const std::string& url_base, bool allow_missing) {
  // Listing never needs the service lock: files live on disk.
  auto f = Filter::parse(c.param("$filter"), ListKind::TaskFiles);
  if (!f) {
    return c.error(errors::kInvalidQueryParameter,
                   {{"QueryParameterName", "$filter"}, {"Reason", f.error().message}});
  }
  int max = 1000;
  if (c.has_param("maxresults"))
    max = std::clamp(std::atoi(c.param("maxresults").c_str()), 1, 1000);
  auto entries = (allow_missing && !fs::exists(root))
                     ? std::vector<FileEntry>{}
                     : list_tree(root, c.param("recursive") == "true");
  std::string body = page_start(c.base_url, "files");
  // Entries are sorted by name: the page resumes after the last name of the previous one.
  const std::string after = c.param("$skiptoken");
  auto from = std::find_if(entries.begin(), entries.end(),
                           [&](const FileEntry& e) { return after.empty() || e.name > after; });
  auto keep = [&](const FileEntry& e) {
    auto get = [&](std::string_view prop) -> FilterValue {
      if (prop == "name") return e.name;
      if (prop == "isDirectory") return S_ISDIR(e.st.st_mode) != 0;
      return {};
    };
    return f->matches(get);
  };
  auto write = [&](const FileEntry& e, std::string& out) { out += file_json(e, url_base); };
  auto name = [](const FileEntry& e) -> const std::string& { return e.name; };
  const PageEnd page = fill_page(body, max, from, entries.end(), keep, write, name);
  body += "]";
  if (page.more) {
    std::string link = c.base_url + c.req.path + "?api-version=" +
                       httplib::detail::encode_query_param(c.param("api-version")) +
                       "&maxresults=" + std::to_string(max) +
                       "&$skiptoken=" + httplib::detail::encode_query_param(page.last_id);
    if (c.has_param("recursive")) link += "&recursive=" + c.param("recursive");
    if (c.has_param("$filter"))
      link += "&$filter=" + httplib::detail::encode_query_param(c.param("$filter"));
    body += ",\"odata.nextLink\":";
    append_json_string(body, link);
  }
  body += "}";
  c.json(200, std::move(body));
}

void FileApi::list_task_files(Call& c, const std::string& job, const std::string& task) {
  std::string root, url;
  {
    std::shared_lock lock(account_.mu_);
    auto* j = account_.find_job(c, job);
    if (!j) return;
    auto* t = account_.find_task(c, *j, task);
    if (!t) return;
    if (t->node_id.empty()) {
      return c.error(errors::kInvalidForCurrentState);
    }
    root = task_dir(account_.options_.work_dir, t->node_id, job, task);
    url = fmt::format("{}/jobs/{}/tasks/{}/files", account_.base_url_, job, task);
  }
  list_files(c, root, url, true);
}

void FileApi::task_file(Call& c, const std::string& job, const std::string& task,
                        const std::string& path) {
  std::string root, url;
  {
    std::shared_lock lock(account_.mu_);
    auto* j = account_.find_job(c, job);
    if (!j) return;
    auto* t = account_.find_task(c, *j, task);
    if (!t) return;
    if (t->node_id.empty()) return c.error(errors::kFileNotFound);
    root = task_dir(account_.options_.work_dir, t->node_id, job, task);
    url = fmt::format("{}/jobs/{}/tasks/{}/files/{}", account_.base_url_, job, task, path);
  }
  serve_file(c, root, path, url);
}

void FileApi::list_node_files(Call& c, const std::string& pool, const std::string& node) {
  std::string root;
  {
    std::shared_lock lock(account_.mu_);
    if (!account_.find_node(c, pool, node)) return;
    root = node_dir(account_.options_.work_dir, node);
  }
  list_files(c, root, fmt::format("{}/pools/{}/nodes/{}/files", account_.base_url_, pool, node),
             true);
}

void FileApi::node_file(Call& c, const std::string& pool, const std::string& node,
                        const std::string& path) {
  std::string root;
  {
    std::shared_lock lock(account_.mu_);
    if (!account_.find_node(c, pool, node)) return;
    root = node_dir(account_.options_.work_dir, node);
  }
  serve_file(c, root, path,
             fmt::format("{}/pools/{}/nodes/{}/files/{}", account_.base_url_, pool, node, path));
}

}  // namespace trainyard::emu
