// Storage connection strings and the `az storage` environment variables. Messages name the part
// that is wrong and never quote an AccountKey or a SharedAccessSignature.
#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "azure/credentials.hpp"
#include "azure/storage_accounts.hpp"
#include "core/text.hpp"
#include "signing.hpp"

namespace trainyard::azure {

namespace {

using Parts = std::map<std::string, std::string>;  // upper-cased key → value

Error refuse(std::string_view label, const std::string& what) {
  return make_error(ErrorKind::Usage, fmt::format("{}: {}", label, what));
}

std::string upper(std::string_view s) {
  return signing::uppercase(s);
}

// `Key=Value;…` into upper-cased keys; the value is everything after the first `=` (base64 keys
// end in `=`).
Result<Parts> split_parts(std::string_view text, std::string_view label) {
  Parts parts;
  size_t index = 0;
  for (std::string_view rest = text; !rest.empty();) {
    std::string_view item = rest.substr(0, rest.find(';'));
    rest.remove_prefix(std::min(rest.size(), item.size() + 1));
    ++index;
    if (signing::trim(item).empty()) continue;
    size_t eq = item.find('=');
    std::string key = upper(signing::trim(item.substr(0, eq)));
    if (eq == std::string_view::npos || key.empty())
      return refuse(label, fmt::format("part {} is not Key=Value", index));
    if (!parts.emplace(key, std::string(signing::trim(item.substr(eq + 1)))).second)
      return refuse(label, fmt::format("{} is given twice", std::string(item.substr(0, eq))));
  }
  if (parts.empty()) return refuse(label, "empty");
  return parts;
}

std::string get(const Parts& parts, const char* key) {
  auto it = parts.find(key);
  return it == parts.end() ? std::string() : it->second;
}

Result<StorageConnection> development_storage(const Parts& parts, std::string_view label) {
  for (const char* key : {"ACCOUNTNAME", "ACCOUNTKEY", "BLOBENDPOINT", "SHAREDACCESSSIGNATURE",
                          "DEVELOPMENTSTORAGEPROXYURI"})
    if (parts.count(key))
      return refuse(label,
                    "UseDevelopmentStorage=true takes no other account settings (give "
                    "AccountName, AccountKey and BlobEndpoint instead)");
  return StorageConnection{kDevStoreAccount, kDevStoreBlobEndpoint, kDevStoreKey, "", false};
}

// The endpoint, account, key and SAS the parts name; completeness is checked by the caller.
Result<StorageConnection> from_parts(const Parts& parts, std::string_view label) {
  std::string dev = get(parts, "USEDEVELOPMENTSTORAGE");
  if (iequals(dev, "true")) return development_storage(parts, label);
  if (!dev.empty() && !iequals(dev, "false"))
    return refuse(label, "UseDevelopmentStorage must be true or false");
  StorageConnection c;
  c.account_name = get(parts, "ACCOUNTNAME");
  c.account_key = get(parts, "ACCOUNTKEY");
  c.sas_token = get(parts, "SHAREDACCESSSIGNATURE");
  if (c.sas_token.starts_with('?')) c.sas_token.erase(0, 1);
  c.blob_endpoint = trim_trailing(get(parts, "BLOBENDPOINT"), '/');
  std::string protocol = ascii_lowercase(get(parts, "DEFAULTENDPOINTSPROTOCOL"));
  if (!protocol.empty() && protocol != "https" && protocol != "http")
    return refuse(label, "DefaultEndpointsProtocol must be https or http");
  std::string suffix = get(parts, "ENDPOINTSUFFIX");
  if (c.blob_endpoint.empty() && !c.account_name.empty())
    c.blob_endpoint = fmt::format("{}://{}.blob.{}", protocol.empty() ? "https" : protocol,
                                  c.account_name, suffix.empty() ? "core.windows.net" : suffix);
  return c;
}

// The checks every source shares once all its parts are in.
Result<void> check_complete(const StorageConnection& c, std::string_view label) {
  if (c.blob_endpoint.empty()) return refuse(label, "needs AccountName or BlobEndpoint");
  if (auto ok = check_url_allowed(c.blob_endpoint); !ok)
    return refuse(label, "BlobEndpoint " + ok.error().message);
  if (c.account_key.empty() && c.sas_token.empty())
    return refuse(label, "needs AccountKey or SharedAccessSignature");
  if (!c.account_key.empty() && !is_valid_account_key(c.account_key))
    return refuse(label, "AccountKey is not valid base64");
  if (!c.account_key.empty() && c.account_name.empty())
    return refuse(label, "AccountKey needs AccountName");
  return ok_result();
}

}  // namespace

std::string default_blob_endpoint(std::string_view account_name) {
  return fmt::format("https://{}.blob.core.windows.net", account_name);
}

Result<StorageConnection> parse_connection_string(std::string_view text) {
  constexpr std::string_view kLabel = "connection string";
  auto parts = split_parts(text, kLabel);
  if (!parts) return parts.error();
  auto c = from_parts(*parts, kLabel);
  if (!c) return c;
  TY_TRY(check_complete(*c, kLabel));
  return c;
}

namespace {

std::string env_get(const std::map<std::string, std::string>& env, const char* key) {
  auto it = env.find(key);
  return it == env.end() ? std::string() : it->second;
}

// AZURE_STORAGE_AUTH_MODE=login: `az` uses AZURE_STORAGE_ACCOUNT and an Entra token, no key.
Result<StorageConnection> login_from_environment(const std::map<std::string, std::string>& env) {
  StorageConnection c;
  c.login = true;
  c.account_name = env_get(env, "AZURE_STORAGE_ACCOUNT");
  if (c.account_name.empty())
    return refuse("AZURE_STORAGE_AUTH_MODE=login", "needs AZURE_STORAGE_ACCOUNT");
  c.blob_endpoint = default_blob_endpoint(c.account_name);
  return c;
}

}  // namespace

Result<std::optional<StorageConnection>> connection_from_environment(
    const std::map<std::string, std::string>& env) {
  const std::string text = env_get(env, "AZURE_STORAGE_CONNECTION_STRING");
  const std::string account = env_get(env, "AZURE_STORAGE_ACCOUNT");
  const std::string key = env_get(env, "AZURE_STORAGE_KEY");
  const std::string sas = env_get(env, "AZURE_STORAGE_SAS_TOKEN");
  const std::string mode = env_get(env, "AZURE_STORAGE_AUTH_MODE");
  if (!mode.empty() && mode != "login" && mode != "key")
    return refuse("AZURE_STORAGE_AUTH_MODE", "expected login or key");
  if (mode == "login") {
    auto login = login_from_environment(env);
    if (!login) return login.error();
    return std::optional(std::move(*login));
  }
  if (text.empty() && account.empty() && key.empty() && sas.empty())
    return std::optional<StorageConnection>();
  StorageConnection c;
  if (!text.empty()) {
    auto parts = split_parts(text, "AZURE_STORAGE_CONNECTION_STRING");
    if (!parts) return parts.error();
    auto parsed = from_parts(*parts, "AZURE_STORAGE_CONNECTION_STRING");
    if (!parsed) return parsed.error();
    c = std::move(*parsed);
  }
  if (c.account_name.empty()) c.account_name = account;
  if (c.account_key.empty() && c.sas_token.empty()) c.account_key = key;
  if (c.sas_token.empty()) c.sas_token = sas.starts_with('?') ? sas.substr(1) : sas;
  if (c.blob_endpoint.empty() && !c.account_name.empty())
    c.blob_endpoint = default_blob_endpoint(c.account_name);
  TY_TRY(check_complete(c, "the AZURE_STORAGE_* environment"));
  return std::optional(std::move(c));
}

}  // namespace trainyard::azure
