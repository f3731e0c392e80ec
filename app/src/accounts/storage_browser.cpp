#include "storage_browser.hpp"

#include <algorithm>
#include <array>

#include "account_lookup.hpp"
#include "azure/storage_accounts.hpp"
#include "core/text.hpp"
#include "storage_lookup.hpp"

namespace trainyard {

namespace {

// `a/b/c.txt` → `c.txt`, `a/b/` → `b`.
std::string last_part(const std::string& key) {
  auto end = key.ends_with('/') ? key.size() - 1 : key.size();
  auto slash = end == 0 ? std::string::npos : key.rfind('/', end - 1);
  auto from = slash == std::string::npos ? 0 : slash + 1;
  return key.substr(from, end - from);
}

// Where the account's Blob service is, when that is known without its secret.
std::string where_it_is(const azure::StorageAccountConfig& a) {
  if (!a.endpoint.empty()) return a.endpoint;
  if (!a.account_name.empty()) return azure::default_blob_endpoint(a.account_name);
  if (!a.connection_string.empty()) {
    auto c = azure::parse_connection_string(a.connection_string);
    return c ? c->blob_endpoint : "a connection string (" + c.error().message + ")";
  }
  if (!a.connection_string_env.empty())
    return "the connection string in $" + a.connection_string_env;
  if (!a.connection_string_command.empty()) return "a connection string from a command";
  return "-";
}

std::string used_by(const std::vector<azure::AccountConfig>& batch, const std::string& storage) {
  std::string names;
  for (const auto& b : batch)
    if (b.auto_storage == storage) names += (names.empty() ? "" : ", ") + b.name;
  return names.empty() ? "" : " · auto-storage of " + names;
}

StorageEntry account_entry(const std::vector<azure::AccountConfig>& batch,
                           const azure::StorageAccountConfig& a) {
  StorageEntry e;
  e.kind = StorageEntryKind::Account;
  e.key = e.name = a.name;
  e.info = where_it_is(a) + used_by(batch, a.name);
  if (a.origin == azure::AccountOrigin::Environment) e.info += " · from AZURE_STORAGE_*";
  if (a.origin == azure::AccountOrigin::Discovery) e.info += " · discovered";
  return e;
}

Result<StorageListing> list_containers(azure::BlobClient& client, size_t cap) {
  auto containers = client.containers();
  if (!containers) return containers.error();
  StorageListing out;
  for (auto& c : *containers) {
    if (out.entries.size() == cap) {
      out.capped = true;
      break;
    }
    out.entries.push_back(
        {StorageEntryKind::Container, c.name, c.name, std::nullopt, c.last_modified, "container"});
  }
  return out;
}

void add_page(StorageListing& out, azure::BlobListPage& page, const std::string& prefix,
              size_t cap) {
  for (auto& p : page.prefixes) {
    if (out.entries.size() == cap) return void(out.capped = true);
    out.entries.push_back(
        {StorageEntryKind::Folder, p, last_part(p) + "/", std::nullopt, std::nullopt, "folder"});
  }
  for (auto& b : page.blobs) {
    if (out.entries.size() == cap) return void(out.capped = true);
    // A blob named like its folder (`dir/`) lists as the folder's marker; it shows as itself.
    std::string name = b.name.size() > prefix.size() ? last_part(b.name) : b.name;
    out.entries.push_back(
        {StorageEntryKind::Blob, b.name, name, b.size, b.last_modified, b.content_type});
  }
}

// Folders first, then blobs; each by name, as the service lists them.
void order_entries(StorageListing& out) {
  std::stable_sort(out.entries.begin(), out.entries.end(), [](const auto& a, const auto& b) {
    bool fa = a.kind == StorageEntryKind::Folder, fb = b.kind == StorageEntryKind::Folder;
    if (fa != fb) return fa;
    return a.key < b.key;
  });
}

}  // namespace

std::string location_text(const StorageLocation& at) {
  if (at.storage.empty()) return "";
  if (at.container.empty()) return at.storage;
  return at.storage + "/" + at.container + (at.prefix.empty() ? "" : "/" + at.prefix);
}

StorageLocation parse_location(const std::string& text) {
  StorageLocation at;
  auto first = text.find('/');
  at.storage = text.substr(0, first);
  if (first == std::string::npos) return at;
  auto second = text.find('/', first + 1);
  at.container = text.substr(first + 1, second == std::string::npos ? second : second - first - 1);
  if (second != std::string::npos) at.prefix = text.substr(second + 1);
  return at;
}

StorageLocation location_from_command(const std::string& text) {
  auto at = parse_location(text);
  if (!at.prefix.empty() && !at.prefix.ends_with('/')) at.prefix += '/';
  return at;
}

std::vector<StorageEntry> storage_account_entries(const Settings& settings) {
  std::vector<std::string> notes;  // a broken discovery cache: the Accounts pane says so
  auto batch = known_accounts(settings, notes);
  std::vector<StorageEntry> out;
  for (const auto& a : known_storage_accounts(settings)) out.push_back(account_entry(batch, a));
  return out;
}

Result<StorageListing> list_location(azure::BlobClient& client, const StorageLocation& at,
                                     size_t cap) {
  if (at.container.empty()) return list_containers(client, cap);
  StorageListing out;
  auto ok = client.list(at.container, at.prefix, "/", [&](azure::BlobListPage& page) {
    add_page(out, page, at.prefix, cap);
    // Past the cap the rest is not read: a folder of millions answers in one page's time.
    if (out.capped) return Result<void>(make_error(ErrorKind::Internal, "capped"));
    return Result<void>();
  });
  if (!ok && !out.capped) return ok.error();
  order_entries(out);
  return out;
}

bool is_text_blob(const std::string& name, const std::string& content_type) {
  auto type = ascii_lowercase(content_type);
  if (type.starts_with("text/")) return true;
  for (const char* t : {"json", "xml", "yaml", "x-sh", "javascript", "csv", "ndjson"})
    if (type.find(t) != std::string::npos) return true;
  static constexpr std::array kTextNames = {".txt",  ".log",   ".out",  ".err",  ".csv", ".tsv",
                                            ".json", ".jsonl", ".yaml", ".yml",  ".md",  ".py",
                                            ".sh",   ".cfg",   ".ini",  ".toml", ".xml"};
  auto lower = ascii_lowercase(name);
  return std::any_of(kTextNames.begin(), kTextNames.end(),
                     [&](const char* ext) { return lower.ends_with(ext); });
}

}  // namespace trainyard
