// Batch accounts found through the management plane (ARM): the accounts of every subscription a
// token credential sees, and a small cache of that list in the data directory.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "azure/accounts.hpp"
#include "azure/credentials.hpp"
#include "azure/http.hpp"
#include "azure/retry.hpp"
#include "core/result.hpp"

namespace trainyard::azure {

/// The management plane of the public cloud.
inline constexpr const char* kManagementEndpoint = "https://management.azure.com";
/// The cache's file name inside the data directory.
inline constexpr const char* kDiscoveryCacheFile = "discovered-accounts.json";

/// Where and how to discover.
struct DiscoveryOptions {
  std::string management_endpoint = kManagementEndpoint;  ///< scheme and host (tests: the emulator)
  std::string subscriptions_api_version = "2022-12-01";
  std::string batch_api_version = "2024-07-01";
  std::chrono::milliseconds timeout{30000};  ///< per request
  RetryPolicy retry;                         ///< 408/429/5xx and transport failures
  /// Only these subscriptions; empty: every subscription `GET /subscriptions` lists.
  std::vector<std::string> subscriptions;
  /// The auth every discovered account gets (its `tokens.resource` is set to kBatchResource).
  AuthConfig account_auth;
  /// SharedKey discovery: also POST `listKeys` and give each account its primary key inline. Off
  /// by default; such keys live only in the returned configs, never in the cache.
  bool fetch_keys = false;
};

/// What a Batch account may use (its management-plane properties dedicatedCoreQuota,
/// lowPriorityCoreQuota, poolQuota and activeJobAndJobScheduleQuota).
struct AccountQuotas {
  int64_t dedicated_cores = 0;
  int64_t spot_cores = 0;
  int64_t pools = 0;
  int64_t active_jobs = 0;  ///< active jobs and job schedules
  bool operator==(const AccountQuotas&) const = default;
};

/// One account the management plane listed.
struct DiscoveredAccount {
  /// name, endpoint, auth, origin Discovery; `auto_storage` the name of the storage account that
  /// properties.autoStorage links (a storage account of that name is known with the same auth)
  AccountConfig config;
  std::string subscription;
  std::string resource_group;
  std::string location;
  std::optional<AccountQuotas> quotas;  ///< none: the listing did not give all four
};

/// What a discovery found, and what it skipped (a subscription that answered 403, an account
/// whose endpoint is not allowed), one line each.
struct DiscoveryResult {
  std::vector<DiscoveredAccount> accounts;
  std::vector<std::string> notes;
};

/// Lists the subscriptions (paged by `nextLink`) unless `options.subscriptions` names them, then
/// each one's `Microsoft.Batch/batchAccounts` (paged). `credential` must carry a management-plane
/// token (resource kManagementResource). Errors name the redacted URL and the HTTP status; the
/// endpoint and every `nextLink` must pass check_url_allowed and stay on the management host.
Result<DiscoveryResult> discover_accounts(HttpClient& http, Credential& credential,
                                          const DiscoveryOptions& options);

/// `options.account_auth` pointed at the management plane: the same credential kind with
/// resource kManagementResource, for make_credential.
AccountConfig management_account(const AuthConfig& auth);

/// Parses config.json's `discovery.auth` (the accounts' auth object, token kinds only); errors
/// name `source` and `/discovery/auth/…`.
Result<AuthConfig> parse_discovery_auth(const nlohmann::json& auth, const std::string& source);

/// `<data_dir>/discovered-accounts.json`.
std::string discovery_cache_path(const std::string& data_dir);

/// Writes the list (names, endpoints, subscriptions; never an auth object or key) to `path`,
/// mode 0600, atomically (a temporary file in the same directory, then rename).
Result<void> save_discovery_cache(const std::string& path,
                                  const std::vector<DiscoveredAccount>& accounts);

/// Reads what save_discovery_cache wrote, giving each account `auth` (resource set to Batch's).
/// A missing file is an empty list; a malformed one is a Parse error naming the file.
Result<std::vector<DiscoveredAccount>> load_discovery_cache(const std::string& path,
                                                            const AuthConfig& auth);

}  // namespace trainyard::azure
