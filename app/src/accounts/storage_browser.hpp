// Internal: what the TUI's Storage pane browses: where it stands (the storage accounts, an
// account's containers, a folder of a container), the entries it lists there, and which blobs
// read as text.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/settings.hpp"
#include "azure/blob_client.hpp"
#include "core/result.hpp"
#include "core/time.hpp"

namespace trainyard {

/// A place in the storage tree: everything empty is the list of storage accounts.
struct StorageLocation {
  std::string storage;    ///< trainyard's name of the storage account; empty: the accounts
  std::string container;  ///< empty: the account's containers
  std::string prefix;     ///< a folder of the container: empty, or ending in `/`
};

/// The location as one text (the Storage frame's `entity`): `S`, `S/C` or `S/C/PREFIX/`.
std::string location_text(const StorageLocation& at);
/// The location a location_text() names (an empty text: the accounts).
StorageLocation parse_location(const std::string& text);
/// `S/C/PREFIX` of `:storage S/C/PREFIX`: the same, with a missing final `/` added to the prefix.
StorageLocation location_from_command(const std::string& text);

/// What an entry of a listing is.
enum class StorageEntryKind { Account, Container, Folder, Blob };

/// One row of the Storage pane.
struct StorageEntry {
  StorageEntryKind kind = StorageEntryKind::Blob;
  std::string key;   ///< the account's name, the container, the folder's prefix, the blob's name
  std::string name;  ///< what the row shows: the last part of the key (a folder's ends in `/`)
  std::optional<uint64_t> size;       ///< a blob's
  std::optional<Timestamp> modified;  ///< a blob's or a container's
  std::string info;                   ///< a blob's content type; an account's endpoint
};

/// What one location lists.
struct StorageListing {
  std::vector<StorageEntry> entries;  ///< folders first, then blobs, each by name
  bool capped = false;                ///< more than kStorageListCap entries: the first ones
};

/// At most this many entries are listed at one location.
inline constexpr size_t kStorageListCap = 50000;

/// The storage accounts trainyard knows (known_storage_accounts), each with where its Blob service
/// is (when that is known without a secret) and which Batch accounts use it as their
/// auto-storage. No secret is read.
std::vector<StorageEntry> storage_account_entries(const Settings& settings);
/// Lists a container-level location through `client`: the account's containers, or a folder's
/// subfolders and blobs (`/` as the delimiter), at most `cap` entries.
Result<StorageListing> list_location(azure::BlobClient& client, const StorageLocation& at,
                                     size_t cap = kStorageListCap);

/// True when a blob reads as text in the log view: a text content type (`text/*`, JSON, XML,
/// YAML), or a name ending like a log, a table or a script when the type says nothing more.
bool is_text_blob(const std::string& name, const std::string& content_type);

}  // namespace trainyard
