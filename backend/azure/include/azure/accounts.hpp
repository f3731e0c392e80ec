// Batch accounts: from config.json, from the `az batch` environment variables, and how each
// authenticates. Secrets are resolved only when a credential is built, never stored elsewhere.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "azure/credentials.hpp"
#include "azure/http.hpp"
#include "core/result.hpp"

namespace trainyard::azure {

/// How an account authenticates.
enum class AuthKind {
  SharedKey,         ///< account key from `key`, `keyEnv` or `keyCommand`
  ServicePrincipal,  ///< tenant, client id, secret from `clientSecretEnv`/`clientSecretCommand`
  ManagedIdentity,   ///< IMDS, optionally a user-assigned client id
  AzureCli,          ///< `az account get-access-token`
};

/// The `auth` object of an account in config.json.
struct AuthConfig {
  AuthKind kind = AuthKind::SharedKey;
  std::string key;          ///< inline key (the config file must then be private: mode & 077 == 0)
  std::string key_env;      ///< environment variable holding the key
  std::string key_command;  ///< command printing the key (a password manager), run with /bin/sh -c
  std::string tenant;
  std::string client_id;
  std::string client_secret_env;
  std::string client_secret_command;
  TokenSource tokens;  ///< authority, IMDS endpoint (tests point them at the emulator)
  std::string az_path = "az";
};

/// Where an account's definition came from.
enum class AccountOrigin { Config, Environment, Discovery };

/// One Batch (or emulator) account.
struct AccountConfig {
  std::string name;
  std::string endpoint;  ///< scheme and host, no trailing slash
  AuthConfig auth;
  bool readonly = false;
  bool emulator = false;     ///< labelled "emulator" in the UI
  std::string cacert;        ///< extra CA bundle for this endpoint
  std::string color;         ///< `color` (or `colour`): the TUI's band for it (`red`); empty: none
  std::string auto_storage;  ///< `autoStorage`: the name of one of config.json's storageAccounts
  std::string
      region;  ///< `region` (`westeurope`), or the management plane's location; may be empty
  AccountOrigin origin = AccountOrigin::Config;
};

/// The colours an account's `color` may name: red, green, yellow, blue, magenta, cyan.
const std::vector<std::string>& account_colors();

/// Parses config.json's `accounts` array. Errors name `source` and the JSON pointer
/// (`/accounts/1/endpoint`); an endpoint that is neither https nor loopback http is refused.
Result<std::vector<AccountConfig>> parse_accounts(const nlohmann::json& accounts,
                                                  const std::string& source);

/// Parses an account's `auth` object at `ptr` (also used for storage accounts).
Result<AuthConfig> parse_account_auth(const nlohmann::json& auth, const std::string& source,
                                      const std::string& ptr);

/// The account's Azure region (`westeurope`, as the Retail Prices API's armRegionName): its
/// `region`, else the second label of a Batch endpoint's host (`acct.westeurope.batch.azure.com`);
/// else an error saying to set `region` on the account in config.json.
Result<std::string> account_region(const AccountConfig& account);

/// True for a region name as Azure spells it for machines: lowercase letters and digits.
bool is_region_name(std::string_view name);

/// True when a parsed account set holds a secret inline (the file must then be private).
bool holds_inline_secret(const std::vector<AccountConfig>& accounts);

/// The account `az batch` would use: AZURE_BATCH_ACCOUNT, AZURE_BATCH_ENDPOINT and
/// AZURE_BATCH_ACCESS_KEY all set (the key stays in the environment: `keyEnv`).
std::optional<AccountConfig> account_from_environment(
    const std::map<std::string, std::string>& env);

/// Config accounts first; an environment or discovered account whose name a config account
/// already has is dropped, with a message saying so in `notes`. `local` is reserved.
std::vector<AccountConfig> merge_accounts(std::vector<AccountConfig> config,
                                          std::vector<AccountConfig> others,
                                          std::vector<std::string>& notes);

/// Builds the credential: resolves the key or secret now (env var, command) and keeps it only
/// inside the credential. Errors never contain the secret.
Result<std::unique_ptr<Credential>> make_credential(const AccountConfig& account,
                                                    const std::map<std::string, std::string>& env,
                                                    std::shared_ptr<HttpClient> http);

/// The process environment as a map.
std::map<std::string, std::string> environment_map();

}  // namespace trainyard::azure
