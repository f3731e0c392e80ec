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

int storage_ls(const StorageFlags& f);
int storage_cat(const StorageFlags& f);
int storage_get(const StorageFlags& f);
int storage_put(const StorageFlags& f);

}  // namespace trainyard
