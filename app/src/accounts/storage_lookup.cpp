#include "storage_lookup.hpp"

#include <malloc.h>

#include <fmt/format.h>

#include <algorithm>

#include "account_lookup.hpp"
#include "azure/accounts.hpp"
#include "azure/discovery.hpp"

namespace trainyard {

namespace {

std::string known_names(const std::vector<azure::StorageAccountConfig>& accounts) {
  std::string names;
  for (const auto& a : accounts) names += (names.empty() ? "" : ", ") + a.name;
  return names.empty() ? "none" : names;
}

bool known_name(const std::vector<azure::StorageAccountConfig>& known, const std::string& name) {
  return std::any_of(known.begin(), known.end(), [&](const auto& a) { return a.name == name; });
}

// The auto-storage accounts of the cached discovered Batch accounts, not named otherwise.
void add_discovered(const Settings& settings, std::vector<azure::StorageAccountConfig>& known) {
  if (!settings.discovery.enabled) return;
  auto cached =
      azure::load_discovery_cache(discovery_cache_file(settings), settings.discovery.auth);
  if (!cached) return;  // the Batch account lookup names a broken cache
  for (const auto& d : *cached) {
    const std::string& name = d.config.auto_storage;
    if (name.empty() || known_name(known, name)) continue;
    azure::StorageAccountConfig a;
    a.name = a.account_name = name;
    a.auth = settings.discovery.auth;
    a.auth.tokens.resource = azure::kStorageResource;
    a.origin = azure::AccountOrigin::Discovery;
    known.push_back(std::move(a));
  }
}

}  // namespace

std::vector<azure::StorageAccountConfig> known_storage_accounts(const Settings& settings) {
  std::vector<azure::StorageAccountConfig> known = settings.storage_accounts;
  if (auto env = azure::storage_account_from_environment(azure::environment_map()))
    known.push_back(*env);
  add_discovered(settings, known);
  return known;
}

Result<azure::StorageAccountConfig> find_storage_account(const Settings& settings,
                                                         const std::string& name) {
  auto known = known_storage_accounts(settings);
  auto env = azure::storage_account_from_environment(azure::environment_map());
  if (name.empty() && env) return *env;
  if (name.empty() && settings.storage_accounts.size() == 1) return known.front();
  if (name.empty())
    return make_error(ErrorKind::Usage,
                      fmt::format("name a storage account with --storage (known: {}); or set "
                                  "AZURE_STORAGE_CONNECTION_STRING",
                                  known_names(known)));
  for (const auto& a : known)
    if (a.name == name) return a;
  return make_error(ErrorKind::Usage, fmt::format("unknown storage account '{}' (known: {})", name,
                                                  known_names(known)));
}

Result<OpenStorage> open_storage(const azure::StorageAccountConfig& account, const Clock& clock) {
  auto http = std::make_shared<azure::HttpClient>();
  auto target = azure::resolve_storage_account(account, azure::environment_map(), http);
  if (!target) return target.error();
  azure::BlobClientOptions options;
  options.blob_endpoint = target->blob_endpoint;
  std::shared_ptr<azure::Credential> credential = std::move(target->credential);
  return OpenStorage{account.name, target->account_name,
                     std::make_unique<azure::BlobClient>(options, credential, clock),
                     std::move(target->sas_signer)};
}

Result<std::unique_ptr<azure::BlobClient>> open_blob_client(
    const azure::StorageAccountConfig& account, const Clock& clock) {
  auto opened = open_storage(account, clock);
  if (!opened) return opened.error();
  return std::move(opened->client);
}

Result<BlobPath> parse_blob_path(const std::string& text) {
  auto slash = text.find('/');
  BlobPath p{text.substr(0, slash), slash == std::string::npos ? "" : text.substr(slash + 1)};
  if (p.container.empty())
    return make_error(
        ErrorKind::Usage,
        fmt::format("'{}': expected CONTAINER[/PATH] (a container name first)", text));
  return p;
}

Result<std::filesystem::path> safe_relative_path(const std::string& name,
                                                 const std::string& prefix) {
  auto rel = std::filesystem::path(name.substr(prefix.size())).lexically_normal();
  if (rel.empty() || rel.is_absolute() || *rel.begin() == ".." || rel.filename().empty())
    return make_error(ErrorKind::Parse,
                      fmt::format("'{}' cannot be a file below the destination", name));
  return rel;
}

std::string listing_time(const std::optional<Timestamp>& t) {
  return t ? format_iso8601(*t).substr(0, 19) + "Z" : "";
}

void release_transfer_buffers_when_freed() {
  // Blocks of several MiB are allocated and freed by each worker thread. glibc would otherwise
  // raise its mmap threshold past their size after the first free and keep them in per-thread
  // arenas: the process would hold several times the memory the transfer needs.
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
}

}  // namespace trainyard
