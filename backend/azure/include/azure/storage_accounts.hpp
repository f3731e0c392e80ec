// Azure Storage accounts: from config.json's `storageAccounts`, from connection strings, and from
// the environment `az storage` reads. Secrets follow the Batch accounts' rules: resolved only when
// a credential is built, never in an error message.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "azure/accounts.hpp"
#include "azure/blob_auth.hpp"
#include "azure/credentials.hpp"
#include "azure/http.hpp"
#include "core/result.hpp"

namespace trainyard::azure {

/// Azurite's (and the old Storage Emulator's) well-known development account and key.
inline constexpr const char* kDevStoreAccount = "devstoreaccount1";
inline constexpr const char* kDevStoreKey =
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
inline constexpr const char* kDevStoreBlobEndpoint = "http://127.0.0.1:10000/devstoreaccount1";

/// What a connection string (or the environment) says: where the Blob service is and how to sign.
struct StorageConnection {
  std::string account_name;   ///< may be empty with a BlobEndpoint and a SAS
  std::string blob_endpoint;  ///< scheme, host and (path-style) account; no trailing slash
  std::string account_key;    ///< base64; a secret
  std::string sas_token;      ///< without the leading `?`; a secret
  bool login = false;         ///< AZURE_STORAGE_AUTH_MODE=login: an Entra token from `az`
};

/// Parses `Key=Value;…` as the Storage SDKs do (keys case-insensitive, a trailing `;` allowed):
/// DefaultEndpointsProtocol, AccountName, AccountKey, BlobEndpoint, EndpointSuffix,
/// SharedAccessSignature, and UseDevelopmentStorage=true for Azurite's devstoreaccount1 at
/// kDevStoreBlobEndpoint. Other services' keys are ignored. Errors (Usage) name the part that is
/// wrong but never quote a key or a SAS; an http endpoint must be loopback.
Result<StorageConnection> parse_connection_string(std::string_view text);

/// What `az storage` would use: AZURE_STORAGE_CONNECTION_STRING (its AccountName, AccountKey,
/// SharedAccessSignature) first; then AZURE_STORAGE_ACCOUNT names the account when the connection
/// string did not, AZURE_STORAGE_KEY gives the key when there is neither key nor SAS, and
/// AZURE_STORAGE_SAS_TOKEN the SAS when there is none. AZURE_STORAGE_AUTH_MODE=login asks for an
/// Entra token instead of any key. nullopt when none of these is set.
Result<std::optional<StorageConnection>> connection_from_environment(
    const std::map<std::string, std::string>& env);

/// One storage account trainyard can reach.
struct StorageAccountConfig {
  std::string name;               ///< how trainyard names it (`--storage NAME`, `autoStorage`)
  std::string account_name;       ///< `accountName`: the Azure storage account
  std::string endpoint;           ///< `endpoint`: the Blob endpoint; default from accountName
  AuthConfig auth;                ///< `auth`, as on Batch accounts (a key, or a token credential)
  std::string connection_string;  ///< `connectionString` (the file must then be private)
  std::string connection_string_env;      ///< `connectionStringEnv`: a variable holding one
  std::string connection_string_command;  ///< `connectionStringCommand`: a command printing one
  AccountOrigin origin = AccountOrigin::Config;
};

/// `https://{account}.blob.core.windows.net`.
std::string default_blob_endpoint(std::string_view account_name);

/// Parses config.json's `storageAccounts` array. Each entry has a `name` and either a connection
/// string source or `accountName` (with an optional `endpoint`) and `auth`. Errors name `source`
/// and the JSON pointer (`/storageAccounts/1/endpoint`) and never quote a secret.
Result<std::vector<StorageAccountConfig>> parse_storage_accounts(const nlohmann::json& storage,
                                                                 const std::string& source);

/// Each Batch account's `autoStorage` names one of `storage`; errors name
/// `/accounts/N/autoStorage`.
Result<void> check_auto_storage(const std::vector<AccountConfig>& accounts,
                                const std::vector<StorageAccountConfig>& storage,
                                const std::string& source);

/// True when a storage account holds a secret inline: a key, or a connection string with a key
/// or SAS (Azurite's published key aside). The config file must then be private.
bool holds_inline_secret(const std::vector<StorageAccountConfig>& storage);

/// The storage account the environment describes (see connection_from_environment), named after
/// its account; its secrets stay in the environment until resolve_storage_account.
std::optional<StorageAccountConfig> storage_account_from_environment(
    const std::map<std::string, std::string>& env);

/// A storage account ready to use: its endpoint and a credential holding the secret.
struct StorageTarget {
  std::string account_name;
  std::string blob_endpoint;
  std::unique_ptr<Credential> credential;
  /// Signs SAS tokens for tasks; null when the account is reached without a key (a SAS, a token).
  std::shared_ptr<const SasSigner> sas_signer;
};

/// Resolves the secret now (inline, env var, command; a connection string likewise) and builds
/// the credential: Storage SharedKey for a key, the SAS for a SAS, an Entra token for the token
/// kinds (audience kStorageResource). Errors never contain the secret.
Result<StorageTarget> resolve_storage_account(const StorageAccountConfig& account,
                                              const std::map<std::string, std::string>& env,
                                              std::shared_ptr<HttpClient> http);

}  // namespace trainyard::azure
