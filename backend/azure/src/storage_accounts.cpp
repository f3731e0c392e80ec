// config.json's `storageAccounts`, the environment's account, a Batch account's `autoStorage`
// reference, and turning any of them into an endpoint and a credential.
#include "azure/storage_accounts.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "azure/blob_auth.hpp"
#include "config_json.hpp"
#include "secret_command.hpp"

namespace trainyard::azure {

namespace {

using config_json::at;
using config_json::opt_string;
using config_json::unknown_key;
using nlohmann::json;

bool valid_account_name(const std::string& n) {
  return n.size() >= 3 && n.size() <= 24 && std::all_of(n.begin(), n.end(), [](char c) {
           return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
         });
}

// The connection string's source; at most one may be given.
Result<void> check_connection_sources(const json& a, const StorageAccountConfig& acc,
                                      const std::string& source, const std::string& ptr) {
  int sources = !acc.connection_string.empty() + !acc.connection_string_env.empty() +
                !acc.connection_string_command.empty();
  if (sources > 1)
    return at(source, ptr,
              "give one of connectionString, connectionStringEnv or connectionStringCommand");
  for (const char* key : {"accountName", "endpoint", "auth"})
    if (a.contains(key)) return at(source, ptr + "/" + key, "the connection string gives it");
  if (acc.connection_string.empty()) return ok_result();
  // Checked now so a typo is reported at load; the message never quotes the string.
  auto parsed = parse_connection_string(acc.connection_string);
  if (!parsed) return at(source, ptr + "/connectionString", parsed.error().message);
  return ok_result();
}

// An account given by name, endpoint and `auth` rather than a connection string.
Result<void> read_named_account(const json& a, StorageAccountConfig& acc, const std::string& source,
                                const std::string& ptr) {
  if (acc.account_name.empty())
    return at(source, ptr + "/accountName", "required (or a connectionString source)");
  if (!valid_account_name(acc.account_name))
    return at(source, ptr + "/accountName", "expected 3 to 24 lowercase letters and digits");
  while (!acc.endpoint.empty() && acc.endpoint.back() == '/') acc.endpoint.pop_back();
  if (acc.endpoint.empty()) acc.endpoint = default_blob_endpoint(acc.account_name);
  if (auto ok = check_url_allowed(acc.endpoint); !ok)
    return at(source, ptr + "/endpoint", ok.error().message);
  if (!a.contains("auth")) return at(source, ptr + "/auth", "required");
  auto auth = parse_account_auth(a["auth"], source, ptr + "/auth");
  if (!auth) return auth.error();
  acc.auth = std::move(*auth);
  acc.auth.tokens.resource = kStorageResource;
  return ok_result();
}

Result<StorageAccountConfig> parse_storage_account(const json& a, const std::string& source,
                                                   const std::string& ptr) {
  static const char* const kKeys[] = {"name",
                                      "accountName",
                                      "endpoint",
                                      "auth",
                                      "connectionString",
                                      "connectionStringEnv",
                                      "connectionStringCommand"};
  if (!a.is_object()) return at(source, ptr, "expected an object");
  if (auto e = unknown_key(a, kKeys, source, ptr)) return *e;
  StorageAccountConfig acc;
  Error err;
  if (!opt_string(a, "name", acc.name, source, ptr, err) ||
      !opt_string(a, "accountName", acc.account_name, source, ptr, err) ||
      !opt_string(a, "endpoint", acc.endpoint, source, ptr, err) ||
      !opt_string(a, "connectionString", acc.connection_string, source, ptr, err) ||
      !opt_string(a, "connectionStringEnv", acc.connection_string_env, source, ptr, err) ||
      !opt_string(a, "connectionStringCommand", acc.connection_string_command, source, ptr, err)) {
    return err;
  }
  if (acc.name.empty()) return at(source, ptr + "/name", "required");
  bool by_connection = a.contains("connectionString") || a.contains("connectionStringEnv") ||
                       a.contains("connectionStringCommand");
  if (by_connection) {
    TY_TRY(check_connection_sources(a, acc, source, ptr));
  } else {
    TY_TRY(read_named_account(a, acc, source, ptr));
  }
  return acc;
}

}  // namespace

Result<std::vector<StorageAccountConfig>> parse_storage_accounts(const json& storage,
                                                                 const std::string& source) {
  if (!storage.is_array()) return at(source, "/storageAccounts", "expected an array");
  std::vector<StorageAccountConfig> out;
  for (size_t i = 0; i < storage.size(); ++i) {
    const std::string ptr = fmt::format("/storageAccounts/{}", i);
    auto a = parse_storage_account(storage[i], source, ptr);
    if (!a) return a.error();
    for (const auto& seen : out)
      if (seen.name == a->name)
        return at(source, ptr + "/name", "'" + a->name + "' is defined twice");
    out.push_back(std::move(*a));
  }
  return out;
}

Result<void> check_auto_storage(const std::vector<AccountConfig>& accounts,
                                const std::vector<StorageAccountConfig>& storage,
                                const std::string& source) {
  for (size_t i = 0; i < accounts.size(); ++i) {
    const std::string& ref = accounts[i].auto_storage;
    if (ref.empty()) continue;
    bool known = std::any_of(storage.begin(), storage.end(),
                             [&](const StorageAccountConfig& s) { return s.name == ref; });
    if (!known)
      return at(source, fmt::format("/accounts/{}/autoStorage", i),
                fmt::format("no storage account named '{}' in storageAccounts", ref));
  }
  return ok_result();
}

bool holds_inline_secret(const std::vector<StorageAccountConfig>& storage) {
  return std::any_of(storage.begin(), storage.end(), [](const StorageAccountConfig& s) {
    if (!s.auth.key.empty()) return true;
    if (s.connection_string.empty()) return false;
    auto c = parse_connection_string(s.connection_string);
    return !c || !c->sas_token.empty() ||
           (!c->account_key.empty() && c->account_key != kDevStoreKey);
  });
}

std::optional<StorageAccountConfig> storage_account_from_environment(
    const std::map<std::string, std::string>& env) {
  auto c = connection_from_environment(env);
  if (c && !*c) return std::nullopt;
  StorageAccountConfig acc;
  // A broken environment still shows up, so that using it reports what is wrong.
  acc.name = c && !(*c)->account_name.empty() ? (*c)->account_name : "environment";
  acc.account_name = c ? (*c)->account_name : std::string();
  acc.endpoint = c ? (*c)->blob_endpoint : std::string();
  acc.origin = AccountOrigin::Environment;
  return acc;
}

}  // namespace trainyard::azure
