#include "task_files.hpp"

#include <sys/stat.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <system_error>

#include <fmt/format.h>
#include <httplib.h>
#include <pugixml.hpp>

#include "core/time.hpp"
#include "emulator/emulator.hpp"

namespace trainyard::emu {

namespace fs = std::filesystem;

namespace {

// `http://HOST:PORT/PATH?QUERY` on a loopback host.
struct LoopbackUrl {
  std::string host;
  int port = 80;
  std::string path;   ///< starts with `/`
  std::string query;  ///< without `?`; a SAS
  /// For messages: never the query, which holds a SAS's signature.
  std::string shown() const { return fmt::format("http://{}:{}{}", host, port, path); }
};

std::optional<LoopbackUrl> parse_url(const std::string& url) {
  const std::string scheme = "http://";
  if (url.rfind(scheme, 0) != 0) return std::nullopt;
  auto slash = url.find('/', scheme.size());
  std::string authority = url.substr(scheme.size(), slash - scheme.size());
  LoopbackUrl u;
  auto colon = authority.rfind(':');
  u.host = colon == std::string::npos || authority.back() == ']' ? authority
                                                                 : authority.substr(0, colon);
  if (colon != std::string::npos && authority.back() != ']')
    u.port = std::atoi(authority.c_str() + colon + 1);
  // Parsed as an address: `127.evil.example` is a host name, not loopback.
  const bool bracketed = u.host.size() > 2 && u.host.front() == '[' && u.host.back() == ']';
  if (!is_loopback_address(bracketed ? u.host.substr(1, u.host.size() - 2) : u.host) || u.port <= 0)
    return std::nullopt;
  std::string rest = slash == std::string::npos ? "/" : url.substr(slash);
  auto q = rest.find('?');
  u.path = rest.substr(0, q);
  if (q != std::string::npos) u.query = rest.substr(q + 1);
  return u;
}

std::string encode_path(const std::string& name) {
  std::string out;
  for (unsigned char c : name) {
    if (std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~')
      out += static_cast<char>(c);
    else
      out += fmt::format("%{:02X}", c);
  }
  return out;
}

std::string with_query(const std::string& path, const std::string& query,
                       const std::string& more = "") {
  std::string q = query;
  if (!more.empty()) q += (q.empty() ? "" : "&") + more;
  return q.empty() ? path : path + "?" + q;
}

httplib::Client client_for(const LoopbackUrl& u) {
  httplib::Client c(u.host == "[::1]" ? "::1" : u.host, u.port);
  c.set_connection_timeout(5);
  c.set_read_timeout(120);
  c.set_write_timeout(120);
  return c;
}

std::string download_code(int status) {
  if (status == 404) return "BlobNotFound";
  if (status == 403 || status == 401) return "BlobAccessDenied";
  return "BlobDownloadMiscError";
}

// A relative filePath that stays below `wd`, or nullopt.
std::optional<fs::path> inside(const std::string& wd, const std::string& relative) {
  fs::path rel = fs::path(relative).lexically_normal();
  if (rel.is_absolute() || (!rel.empty() && *rel.begin() == "..")) return std::nullopt;
  return fs::path(wd) / rel;
}

std::optional<FileFailure> fetch(const LoopbackUrl& u, const std::string& target,
                                 const fs::path& dest) {
  std::error_code ec;
  fs::create_directories(dest.parent_path(), ec);
  std::ofstream out(dest, std::ios::binary | std::ios::trunc);
  if (ec || !out) return FileFailure{"ResourceFileCreateFailed", "cannot create " + dest.string()};
  auto c = client_for(u);
  int status = 0;
  auto res = c.Get(
      target,
      [&](const httplib::Response& r) {
        status = r.status;
        return r.status == 200;
      },
      [&](const char* data, size_t n) { return static_cast<bool>(out.write(data, n)); });
  if (status != 0 && status != 200)
    return FileFailure{download_code(status), fmt::format("{}: HTTP {}", u.shown(), status)};
  if (!res)
    return FileFailure{"BlobDownloadMiscError",
                       fmt::format("{}: {}", u.shown(), httplib::to_string(res.error()))};
  out.close();
  if (!out) return FileFailure{"ResourceFileWriteFailed", "cannot write " + dest.string()};
  return std::nullopt;
}

void apply_mode(const fs::path& file, const nlohmann::json& f) {
  if (!f.contains("fileMode") || !f["fileMode"].is_string()) return;
  const std::string mode = f["fileMode"];
  char* end = nullptr;
  long bits = std::strtol(mode.c_str(), &end, 8);
  if (end && *end == '\0' && bits >= 0 && bits <= 07777)
    ::chmod(file.c_str(), static_cast<mode_t>(bits));
}

// Every blob name under `prefix` in the container, page by page.
std::optional<FileFailure> list_blobs(const LoopbackUrl& u, const std::string& prefix,
                                      std::vector<std::string>& names) {
  std::string marker;
  do {
    auto c = client_for(u);
    std::string more = "restype=container&comp=list&prefix=" + encode_path(prefix);
    if (!marker.empty()) more += "&marker=" + encode_path(marker);
    auto res = c.Get(with_query(u.path, u.query, more));
    if (!res)
      return FileFailure{"BlobDownloadMiscError",
                         fmt::format("{}: {}", u.shown(), httplib::to_string(res.error()))};
    if (res->status != 200)
      return FileFailure{download_code(res->status),
                         fmt::format("{}: listing: HTTP {}", u.shown(), res->status)};
    pugi::xml_document doc;
    if (!doc.load_buffer(res->body.data(), res->body.size()))
      return FileFailure{"BlobDownloadMiscError", u.shown() + ": an unreadable listing"};
    auto root = doc.child("EnumerationResults");
    for (auto b : root.child("Blobs").children("Blob")) names.push_back(b.child_value("Name"));
    marker = root.child_value("NextMarker");
  } while (!marker.empty());
  return std::nullopt;
}

std::optional<FileFailure> download_container(const nlohmann::json& f, const std::string& wd) {
  auto u = parse_url(f.value("storageContainerUrl", ""));
  if (!u)
    return FileFailure{"BlobDownloadMiscError",
                       "storageContainerUrl: the emulator reaches only loopback http URLs"};
  auto base = inside(wd, f.value("filePath", ""));
  if (!base) return FileFailure{"ResourceFileCreateFailed", "filePath leaves the task's folder"};
  std::vector<std::string> names;
  if (auto bad = list_blobs(*u, f.value("blobPrefix", ""), names)) return bad;
  for (const auto& name : names) {
    auto dest = inside(base->string(), name);
    if (!dest) return FileFailure{"ResourceFileCreateFailed", name + ": leaves the task's folder"};
    if (auto bad = fetch(*u, with_query(u->path + "/" + encode_path(name), u->query), *dest))
      return bad;
    apply_mode(*dest, f);
  }
  return std::nullopt;
}

// The auto-storage container as a storageContainerUrl with a SAS the emulator signs.
std::optional<FileFailure> download_auto_storage(nlohmann::json f, const std::string& wd,
                                                 const AutoStorage* storage) {
  if (!storage)
    return FileFailure{"BlobDownloadMiscError",
                       "autoStorageContainerName: the account has no auto-storage (start the "
                       "emulator with --auto-storage)"};
  const std::string container = f.value("autoStorageContainerName", "");
  f["storageContainerUrl"] = auto_storage_container_url(*storage, container, SystemClock().now());
  return download_container(f, wd);
}

std::optional<FileFailure> download_one(const nlohmann::json& f, const std::string& wd,
                                        const AutoStorage* storage) {
  if (f.contains("storageContainerUrl")) return download_container(f, wd);
  if (f.contains("autoStorageContainerName")) return download_auto_storage(f, wd, storage);
  auto u = parse_url(f.value("httpUrl", ""));
  if (!u)
    return FileFailure{"BlobDownloadMiscError",
                       "httpUrl: the emulator reaches only loopback http URLs"};
  auto dest = inside(wd, f.value("filePath", ""));
  if (!dest || f.value("filePath", "").empty())
    return FileFailure{"ResourceFileCreateFailed",
                       "an httpUrl needs a filePath inside the task's folder"};
  if (auto bad = fetch(*u, with_query(u->path, u->query), *dest)) return bad;
  apply_mode(*dest, f);
  return std::nullopt;
}

bool has_wildcard(const std::string& s) {
  return s.find_first_of("*?") != std::string::npos;
}

// The pattern's folders before its first segment with a wildcard (`outputs` of `outputs/**/*`).
std::string fixed_folders(const std::string& pattern) {
  auto wild = pattern.find_first_of("*?");
  auto slash = pattern.rfind('/', wild);
  return slash == std::string::npos ? "" : pattern.substr(0, slash);
}

std::optional<std::string> put_file(const LoopbackUrl& u, const std::string& blob,
                                    const fs::path& file) {
  std::error_code ec;
  const auto size = fs::file_size(file, ec);
  std::ifstream in(file, std::ios::binary);
  if (ec || !in) return file.string() + ": cannot be read";
  auto c = client_for(u);
  httplib::Headers headers{{"x-ms-blob-type", "BlockBlob"}};
  const std::string target = with_query(u.path + "/" + encode_path(blob), u.query);
  auto res = c.Put(
      target, headers, static_cast<size_t>(size),
      [&](size_t offset, size_t length, httplib::DataSink& sink) {
        std::string buf(std::min<size_t>(length, size_t{1} << 20), '\0');
        in.seekg(static_cast<std::streamoff>(offset));
        in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
        sink.write(buf.data(), static_cast<size_t>(in.gcount()));
        return in.gcount() > 0;
      },
      "application/octet-stream");
  const std::string shown = u.shown() + "/" + blob;
  if (!res) return fmt::format("{}: {}", shown, httplib::to_string(res.error()));
  if (res->status != 201) return fmt::format("{}: HTTP {}", shown, res->status);
  return std::nullopt;
}

bool condition_holds(const nlohmann::json& f, bool success) {
  std::string c = "taskcompletion";
  if (f.contains("uploadOptions") && f["uploadOptions"].is_object())
    c = f["uploadOptions"].value("uploadCondition", c);
  for (auto& ch : c) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return c == "taskcompletion" || (c == "tasksuccess") == success;
}

// The files `pattern` matches, relative to `wd` as the pattern spells them.
std::vector<std::string> matching_files(const std::string& wd, const std::string& pattern) {
  std::vector<std::string> out;
  std::error_code ec;
  if (!has_wildcard(pattern)) {
    if (fs::is_regular_file(fs::path(wd) / pattern, ec)) out.push_back(pattern);
    return out;
  }
  const std::string base = fixed_folders(pattern);
  fs::recursive_directory_iterator it(fs::path(wd) / base, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    // Lexically: fs::relative resolves symbolic links, and stdout.txt and stderr.txt are links
    // to the run's files, which would then lie outside the folder and match nothing.
    auto rel = it->path().lexically_relative(fs::path(wd) / base).generic_string();
    std::string spelled = base.empty() ? rel : base + "/" + rel;
    if (output_pattern_matches(pattern, spelled)) out.push_back(spelled);
  }
  return out;
}

std::optional<std::string> upload_entry(const nlohmann::json& f, const std::string& wd) {
  const std::string pattern = f.value("filePattern", "");
  const auto* dest = f.contains("destination") ? &f["destination"] : nullptr;
  const auto* container = dest && dest->contains("container") ? &(*dest)["container"] : nullptr;
  auto u = parse_url(container ? container->value("containerUrl", "") : "");
  if (!u) return "the emulator uploads only to loopback http container URLs";
  const std::string path = container->value("path", "");
  auto files = matching_files(wd, pattern);
  if (files.empty() && !has_wildcard(pattern)) return "no file matches";
  const std::string base = fixed_folders(pattern);
  for (const auto& rel : files) {
    std::string blob;
    if (!has_wildcard(pattern)) {
      blob = path.empty() ? fs::path(rel).filename().string() : path;
    } else {
      std::string below = base.empty() ? rel : rel.substr(base.size() + 1);
      blob = path.empty() ? below : path + "/" + below;
    }
    if (auto bad = put_file(*u, blob, fs::path(wd) / rel)) return bad;
  }
  return std::nullopt;
}

// Glob matching that remembers each (pattern, path) position pair it settled, so a pattern of
// many stars takes time |pattern|·|path|² at worst, never exponential.
class PatternMatch {
 public:
  PatternMatch(const std::string& pattern, const std::string& path)
      : p_(pattern), s_(path), settled_((pattern.size() + 1) * (path.size() + 1), 0) {}

  bool from(size_t pi, size_t si) {
    auto& known = settled_[pi * (s_.size() + 1) + si];
    if (known == 0) known = step(pi, si) ? 2 : 1;
    return known == 2;
  }

 private:
  bool step(size_t pi, size_t si) {
    if (pi == p_.size()) return si == s_.size();
    if (p_.compare(pi, 3, "**/") == 0) {  // no folder or any folders, then the rest
      for (size_t k = si; k <= s_.size(); ++k)
        if ((k == si || s_[k - 1] == '/') && from(pi + 3, k)) return true;
      return false;
    }
    if (p_.compare(pi, 2, "**") == 0) {  // anything, slashes too
      for (size_t k = si; k <= s_.size(); ++k)
        if (from(pi + 2, k)) return true;
      return false;
    }
    if (p_[pi] == '*') {
      for (size_t k = si; k <= s_.size(); ++k) {
        if (from(pi + 1, k)) return true;
        if (k < s_.size() && s_[k] == '/') break;
      }
      return false;
    }
    if (si == s_.size()) return false;
    if (p_[pi] == '?' ? s_[si] == '/' : p_[pi] != s_[si]) return false;
    return from(pi + 1, si + 1);
  }

  const std::string& p_;
  const std::string& s_;
  std::vector<uint8_t> settled_;  ///< 0 not yet, 1 no match, 2 a match
};

// Longer patterns or paths are not output files a task names (and would cost memory to match).
constexpr size_t kMaxPattern = 1024, kMaxPath = 4096;

}  // namespace

bool output_pattern_matches(const std::string& pattern, const std::string& path) {
  if (pattern.size() > kMaxPattern || path.size() > kMaxPath) return false;
  return PatternMatch(pattern, path).from(0, 0);
}

std::optional<FileFailure> download_resource_files(const nlohmann::json& files,
                                                   const std::string& wd,
                                                   const AutoStorage* storage) {
  if (!files.is_array()) return std::nullopt;
  for (const auto& f : files)
    if (auto bad = download_one(f, wd, storage)) return bad;
  return std::nullopt;
}

std::vector<std::string> upload_output_files(const nlohmann::json& files, const std::string& wd,
                                             bool success) {
  std::vector<std::string> errors;
  if (!files.is_array()) return errors;
  for (const auto& f : files) {
    if (!condition_holds(f, success)) continue;
    if (auto bad = upload_entry(f, wd)) errors.push_back(f.value("filePattern", "") + ": " + *bad);
  }
  return errors;
}

FileFailure upload_failure(const std::vector<std::string>& errors) {
  std::string text;
  for (const auto& e : errors) text += (text.empty() ? "" : "; ") + e;
  return {"FileUploadMiscError", "One or more output files failed to upload: " + text, errors};
}

}  // namespace trainyard::emu
