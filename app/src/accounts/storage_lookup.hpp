// Finding a storage account (`--storage NAME`, the environment's, or the only one configured) and
// opening a Blob client for it.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "app/settings.hpp"
#include "azure/blob_auth.hpp"
#include "azure/blob_client.hpp"
#include "core/time.hpp"

namespace trainyard {

/// Every storage account trainyard knows: config.json's `storageAccounts`, then the
/// environment's (AZURE_STORAGE_*), then the auto-storage accounts of the Batch accounts the
/// management plane listed (`accounts discover`), reached with the discovery credential's token.
std::vector<azure::StorageAccountConfig> known_storage_accounts(const Settings& settings);

/// The storage account called `name`: one of known_storage_accounts(). With `name` empty: the
/// environment's, else the only configured one. A Usage error listing the known names otherwise.
Result<azure::StorageAccountConfig> find_storage_account(const Settings& settings,
                                                         const std::string& name);

/// A storage account opened for work.
struct OpenStorage {
  std::string name;          ///< how trainyard names it
  std::string account_name;  ///< the Azure storage account
  std::unique_ptr<azure::BlobClient> client;
  std::shared_ptr<const azure::SasSigner> signer;  ///< null when it is reached without a key
};

/// The account's Blob client and SAS signer, its secret resolved now.
Result<OpenStorage> open_storage(const azure::StorageAccountConfig& account, const Clock& clock);

/// A Blob client for the account, its secret resolved now.
Result<std::unique_ptr<azure::BlobClient>> open_blob_client(
    const azure::StorageAccountConfig& account, const Clock& clock);

/// `CONTAINER[/PATH]` split at its first slash; a Usage error when the container part is empty.
struct BlobPath {
  std::string container;
  std::string path;  ///< a blob name or a prefix; may be empty
};
Result<BlobPath> parse_blob_path(const std::string& text);

/// A blob's (or node file's) name below `prefix` as a path relative to a destination folder;
/// refused (Parse) when it would leave the folder (`../x`, an absolute name) or names a folder.
Result<std::filesystem::path> safe_relative_path(const std::string& name,
                                                 const std::string& prefix);

/// Makes freed transfer blocks go back to the system at once (see the .cpp); call before any.
void release_transfer_buffers_when_freed();

/// `2026-11-27T06:00:01Z` (UTC, to the second), or empty: the times listings show.
std::string listing_time(const std::optional<Timestamp>& t);

}  // namespace trainyard
