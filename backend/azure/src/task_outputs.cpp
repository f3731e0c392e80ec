#include "azure/task_outputs.hpp"

#include <openssl/sha.h>

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "azure/storage_accounts.hpp"
#include "core/text.hpp"
#include "parse_values.hpp"

namespace trainyard::azure {

namespace {

constexpr size_t kMaxUsableJobIdLength = 63 - 4;  // a container name is at most 63; "job-" is 4
constexpr size_t kMaxJobIdInHashedName = 15;

bool usable_as_is(const std::string& id) {
  if (id.empty() || id.size() > kMaxUsableJobIdLength || id.front() == '-' || id.back() == '-')
    return false;
  if (id.find("--") != std::string::npos) return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  });
}

std::string sha1_hex(const std::string& s) {
  unsigned char digest[SHA_DIGEST_LENGTH];
  SHA1(reinterpret_cast<const unsigned char*>(s.data()), s.size(), digest);
  std::string hex;
  for (unsigned char b : digest) hex += fmt::format("{:02x}", b);
  return hex;
}

std::string trimmed_dashes(std::string s) {
  auto first = s.find_first_not_of('-');
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of('-') - first + 1);
}

// Runs of `:`, `_` and `-` become one `-`.
std::string safe_characters(const std::string& id) {
  std::string out;
  for (char c : id) {
    const bool run = c == ':' || c == '_' || c == '-';
    if (!run) {
      out += c;
    } else if (out.empty() || out.back() != '-') {
      out += '-';
    }
  }
  return out;
}

std::string hashed_name(const std::string& id) {
  std::string safe = trimmed_dashes(safe_characters(id));
  if (safe.size() > kMaxJobIdInHashedName) {
    safe = trimmed_dashes(safe.substr(0, kMaxJobIdInHashedName));
  } else if (safe.empty()) {
    safe = "job";
  }
  return safe + "-" + sha1_hex(id);
}

// contentLength is an int64 that the service's examples send as a string ("1813").
std::optional<uint64_t> content_length(const nlohmann::json& v) {
  if (v.is_number_unsigned()) return v.get<uint64_t>();
  if (!v.is_string()) return std::nullopt;
  return detail::size_value(v.get_ref<const std::string&>());
}

}  // namespace

std::string job_output_container(std::string_view job_id) {
  const std::string id = ascii_lowercase(job_id);
  return "job-" + (usable_as_is(id) ? id : hashed_name(id));
}

std::string task_output_prefix(std::string_view task_id) {
  return std::string(task_id) + "/";
}

Result<NodeFile> parse_node_file(const nlohmann::json& item) {
  if (!item.is_object() || !item.contains("name") || !item["name"].is_string())
    return make_error(ErrorKind::Parse, "a file has no name");
  NodeFile f;
  f.name = item["name"].get<std::string>();
  f.is_directory = item.value("isDirectory", false);
  const auto& props = item.contains("properties") ? item["properties"] : nlohmann::json::object();
  if (props.contains("contentLength")) {
    auto size = content_length(props["contentLength"]);
    if (!size)
      return make_error(ErrorKind::Parse,
                        fmt::format("file \"{}\": contentLength is not a size", f.name));
    f.size = *size;
  }
  if (props.contains("lastModified") && props["lastModified"].is_string()) {
    auto t = parse_iso8601(props["lastModified"].get<std::string>());
    if (t) f.last_modified = *t;
  }
  return f;
}

Result<std::vector<NodeFile>> list_task_files(BatchClient& client, const std::string& job,
                                              const std::string& task) {
  std::vector<NodeFile> out;
  auto path = fmt::format("/jobs/{}/tasks/{}/files", url_encode(job), url_encode(task));
  auto ok = client.list(path, {{"recursive", "true"}}, [&](ListPage& page) -> Result<void> {
    for (const auto& item : page.items) {
      auto f = parse_node_file(item);
      if (!f) return f.error();
      if (!f->is_directory) out.push_back(std::move(*f));
    }
    return {};
  });
  if (!ok) return ok.error();
  return out;
}

std::optional<ContainerUrl> parse_container_url(std::string_view url) {
  auto scheme = url.find("://");
  if (scheme == std::string_view::npos) return std::nullopt;
  auto path_at = url.find('/', scheme + 3);
  if (path_at == std::string_view::npos) return std::nullopt;
  std::string_view host = url.substr(scheme + 3, path_at - scheme - 3);
  std::string path(url.substr(path_at + 1, url.find('?') - path_at - 1));
  while (!path.empty() && path.back() == '/') path.pop_back();
  auto dot = host.find('.');
  const bool named_host = dot != std::string_view::npos && host.substr(dot).starts_with(".blob.") &&
                          host.find(':') == std::string_view::npos;
  ContainerUrl c;
  if (named_host) {
    c.account = std::string(host.substr(0, dot));
    c.endpoint = std::string(url.substr(0, path_at));
    c.container = path;
  } else {
    // Path-style (Azurite): the first segment is the account.
    auto slash = path.find('/');
    if (slash == std::string::npos) return std::nullopt;
    c.account = path.substr(0, slash);
    c.endpoint = std::string(url.substr(0, path_at)) + "/" + c.account;
    c.container = path.substr(slash + 1);
  }
  if (c.container.empty() || c.container.find('/') != std::string::npos) return std::nullopt;
  return c;
}

}  // namespace trainyard::azure
