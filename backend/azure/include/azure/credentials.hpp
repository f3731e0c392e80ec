// How the Batch client authenticates: SharedKey, service principal, managed identity, `az` login.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "azure/http.hpp"
#include "core/result.hpp"
#include "core/time.hpp"

namespace trainyard::azure {

/// Adds authentication to a request just before it is sent (and again on every retry).
class Credential {
 public:
  virtual ~Credential() = default;
  /// Sets `Authorization` (and `ocp-date` for SharedKey) on `req`; `now` is the signing time.
  virtual Result<void> authorize(HttpRequest& req, Timestamp now) = 0;
  /// What this credential is, without any secret: `SharedKey (account acct)`.
  virtual std::string describe() const = 0;
};

/// Batch's token audience.
inline constexpr const char* kBatchResource = "https://batch.core.windows.net/";
/// The management plane's.
inline constexpr const char* kManagementResource = "https://management.azure.com/";

/// Signs each request with the account key (Batch SharedKey).
/// A key that is not base64 makes every `authorize` fail with an Auth error (that omits the key).
std::unique_ptr<Credential> shared_key_credential(std::string account, std::string key_base64);

/// True when `key_base64` (surrounding whitespace aside) is strict base64 of a non-empty key.
bool is_valid_account_key(std::string_view key_base64);

/// The SharedKey StringToSign for `req` as it stands (after `authorize` set `ocp-date` and
/// `Content-Length`); what to compare with a 403's "Server used following string to sign".
std::string shared_key_string_to_sign(const HttpRequest& req, std::string_view account);

/// Where tokens come from for the token credentials.
struct TokenSource {
  std::string authority =
      "https://login.microsoftonline.com";  ///< token endpoint host (tests: the emulator)
  std::string imds_endpoint = "http://169.254.169.254/metadata/identity/oauth2/token";
  std::string resource = kBatchResource;
};

/// Client credentials (AZURE_TENANT_ID / AZURE_CLIENT_ID / AZURE_CLIENT_SECRET): POSTs to
/// `{authority}/{tenant}/oauth2/v2.0/token`, caches the token, refreshes 5 minutes before expiry.
std::unique_ptr<Credential> client_secret_credential(std::string tenant, std::string client_id,
                                                     std::string client_secret, TokenSource source,
                                                     std::shared_ptr<HttpClient> http);

/// Managed identity through IMDS (`Metadata: true`), optionally for a user-assigned client id.
std::unique_ptr<Credential> managed_identity_credential(std::optional<std::string> client_id,
                                                        TokenSource source,
                                                        std::shared_ptr<HttpClient> http);

/// The `az` CLI's login: runs `az account get-access-token --resource R -o json` (no shell), kills
/// it after `timeout`, and caches the token like the others.
std::unique_ptr<Credential> azure_cli_credential(
    std::string az_path, std::string resource = kBatchResource,
    std::chrono::milliseconds timeout = std::chrono::seconds(30));

}  // namespace trainyard::azure
