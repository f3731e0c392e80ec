// Internal: the parts of `trainyard storage` shared by its subcommands.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "azure/blob_client.hpp"
#include "commands.hpp"
#include "core/byte_size.hpp"
#include "core/time.hpp"

namespace trainyard {

/// Flags every storage subcommand has.
struct StorageFlags {
  std::string storage;  ///< `--storage NAME`
  std::string target;   ///< CONTAINER[/PATH]
  std::vector<std::string> paths;
  bool json = false, follow = false;
  int parallel = 4;
};

/// The account's client, or the exit code of the error already reported.
struct StorageSession {
  SystemClock clock;
  std::unique_ptr<azure::BlobClient> client;
};
Result<std::unique_ptr<StorageSession>> open_storage(const StorageFlags& f);

/// Makes freed transfer blocks go back to the system at once (see the .cpp); call before any.
void release_transfer_buffers_when_freed();

/// `2026-11-27T06:00:01Z` (UTC, to the second), or empty: the times listings show.
std::string listing_time(const std::optional<Timestamp>& t);

int storage_ls(const StorageFlags& f);
int storage_cat(const StorageFlags& f);
int storage_get(const StorageFlags& f);
int storage_put(const StorageFlags& f);

}  // namespace trainyard
