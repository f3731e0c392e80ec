// Internal: the emulated Batch account's auto-storage account (`--auto-storage`), where a
// resourceFile's `autoStorageContainerName` is read from, as Batch reads the linked account's
// container with the account's key. Parsed and signed here (the emulator shares none of the
// client's storage code): a short-lived service SAS for one container, read and list only.
#pragma once

#include <string>
#include <string_view>

#include "core/result.hpp"
#include "core/time.hpp"

namespace trainyard::emu {

/// What a connection string says of a Blob service the emulator can reach.
struct AutoStorage {
  std::string account;        ///< AccountName
  std::string key_base64;     ///< AccountKey; a secret
  std::string blob_endpoint;  ///< loopback http, path-style (`http://127.0.0.1:10000/acct`)
};

/// Parses `Key=Value;…` (AccountName, AccountKey, BlobEndpoint; UseDevelopmentStorage=true for
/// Azurite's devstoreaccount1 on 127.0.0.1:10000). Refused (Usage), naming the part and never
/// quoting the key: a missing name or key, a key that is not base64, a BlobEndpoint that is
/// not loopback http.
Result<AutoStorage> parse_auto_storage(std::string_view connection_string);

/// The `storageContainerUrl` for `container`: its URL with a service SAS (`sr=c`, `sp=rl`)
/// from 5 minutes before `now` to an hour after, signed with the account's key.
std::string auto_storage_container_url(const AutoStorage& s, const std::string& container,
                                       Timestamp now);

}  // namespace trainyard::emu
