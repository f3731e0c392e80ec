#include "azure/accounts.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "azure/credentials.hpp"
#include "config_json.hpp"
#include "secret_command.hpp"

extern char** environ;

namespace trainyard::azure {

namespace {

using config_json::at;
using config_json::opt_string;
using config_json::unknown_key;
using nlohmann::json;

std::optional<AuthKind> auth_kind(const std::string& s) {
  if (s == "sharedKey") return AuthKind::SharedKey;
  if (s == "servicePrincipal") return AuthKind::ServicePrincipal;
  if (s == "managedIdentity") return AuthKind::ManagedIdentity;
  if (s == "azureCli") return AuthKind::AzureCli;
  return std::nullopt;
}

}  // namespace

Result<AuthConfig> parse_account_auth(const json& a, const std::string& source,
                                      const std::string& ptr) {
  static const char* const kKeys[] = {
      "type",      "key",          "keyEnv",          "keyCommand",
      "tenantId",  "clientId",     "clientSecretEnv", "clientSecretCommand",
      "authority", "imdsEndpoint", "azPath"};
  if (!a.is_object()) return at(source, ptr, "expected an object");
  if (auto e = unknown_key(a, kKeys, source, ptr)) return *e;
  AuthConfig auth;
  Error err;
  std::string type = "sharedKey";
  if (!opt_string(a, "type", type, source, ptr, err) ||
      !opt_string(a, "key", auth.key, source, ptr, err) ||
      !opt_string(a, "keyEnv", auth.key_env, source, ptr, err) ||
      !opt_string(a, "keyCommand", auth.key_command, source, ptr, err) ||
      !opt_string(a, "tenantId", auth.tenant, source, ptr, err) ||
      !opt_string(a, "clientId", auth.client_id, source, ptr, err) ||
      !opt_string(a, "clientSecretEnv", auth.client_secret_env, source, ptr, err) ||
      !opt_string(a, "clientSecretCommand", auth.client_secret_command, source, ptr, err) ||
      !opt_string(a, "authority", auth.tokens.authority, source, ptr, err) ||
      !opt_string(a, "imdsEndpoint", auth.tokens.imds_endpoint, source, ptr, err) ||
      !opt_string(a, "azPath", auth.az_path, source, ptr, err)) {
    return err;
  }
  auto kind = auth_kind(type);
  if (!kind) {
    return at(source, ptr + "/type",
              "expected sharedKey, servicePrincipal, managedIdentity or azureCli");
  }
  auth.kind = *kind;
  // The key itself never goes into the message.
  if (!auth.key.empty() && !is_valid_account_key(auth.key))
    return at(source, ptr + "/key",
              "not valid base64 (give the key as `az batch account keys list` prints it)");
  if (auth.kind == AuthKind::SharedKey && auth.key.empty() && auth.key_env.empty() &&
      auth.key_command.empty()) {
    return at(source, ptr, "a sharedKey account needs key, keyEnv or keyCommand");
  }
  if (auth.kind == AuthKind::ServicePrincipal &&
      (auth.tenant.empty() || auth.client_id.empty() ||
       (auth.client_secret_env.empty() && auth.client_secret_command.empty()))) {
    return at(source, ptr,
              "a servicePrincipal account needs tenantId, clientId and clientSecretEnv or "
              "clientSecretCommand");
  }
  return auth;
}

namespace {

std::string trim_endpoint(std::string e) {
  while (!e.empty() && e.back() == '/') e.pop_back();
  return e;
}

// `color` (or the British `colour`) names one of account_colors().
std::optional<Error> check_color(const std::string& color, const std::string& colour,
                                 const std::string& source, const std::string& ptr) {
  const auto& names = account_colors();
  for (const auto& [key, value] : {std::pair{"color", color}, std::pair{"colour", colour}})
    if (!value.empty() && std::find(names.begin(), names.end(), value) == names.end())
      return at(source, ptr + "/" + key,
                fmt::format("unknown colour '{}' (expected red, green, yellow, blue, magenta or "
                            "cyan)",
                            value));
  return std::nullopt;
}

Result<AccountConfig> parse_account(const json& a, const std::string& source,
                                    const std::string& ptr) {
  static const char* const kKeys[] = {"name",   "kind",  "endpoint", "auth",        "readonly",
                                      "colour", "color", "cacert",   "autoStorage", "region"};
  if (!a.is_object()) return at(source, ptr, "expected an object");
  if (auto e = unknown_key(a, kKeys, source, ptr)) return *e;
  AccountConfig acc;
  Error err;
  std::string kind = "batch", colour;
  if (!opt_string(a, "name", acc.name, source, ptr, err) ||
      !opt_string(a, "kind", kind, source, ptr, err) ||
      !opt_string(a, "endpoint", acc.endpoint, source, ptr, err) ||
      !opt_string(a, "colour", colour, source, ptr, err) ||
      !opt_string(a, "color", acc.color, source, ptr, err) ||
      !opt_string(a, "cacert", acc.cacert, source, ptr, err) ||
      !opt_string(a, "autoStorage", acc.auto_storage, source, ptr, err) ||
      !opt_string(a, "region", acc.region, source, ptr, err)) {
    return err;
  }
  if (!acc.region.empty() && !is_region_name(acc.region))
    return at(source, ptr + "/region",
              "expected a region name such as westeurope (lowercase letters and digits)");
  if (acc.name.empty()) return at(source, ptr + "/name", "required");
  if (auto e = check_color(acc.color, colour, source, ptr)) return *e;
  if (acc.color.empty()) acc.color = colour;
  if (acc.name == "local")
    return at(source, ptr + "/name", "'local' is the built-in local account");
  if (kind != "batch" && kind != "emulator")
    return at(source, ptr + "/kind", "expected batch or emulator");
  acc.emulator = kind == "emulator";
  acc.endpoint = trim_endpoint(acc.endpoint);
  if (acc.endpoint.empty()) return at(source, ptr + "/endpoint", "required");
  if (auto ok = check_url_allowed(acc.endpoint); !ok)
    return at(source, ptr + "/endpoint", ok.error().message);
  if (a.contains("readonly")) {
    if (!a["readonly"].is_boolean()) return at(source, ptr + "/readonly", "expected true or false");
    acc.readonly = a["readonly"].get<bool>();
  }
  if (!a.contains("auth")) return at(source, ptr + "/auth", "required");
  auto auth = parse_account_auth(a["auth"], source, ptr + "/auth");
  if (!auth) return auth.error();
  acc.auth = std::move(*auth);
  return acc;
}

}  // namespace

const std::vector<std::string>& account_colors() {
  static const std::vector<std::string> names{"red", "green", "yellow", "blue", "magenta", "cyan"};
  return names;
}

Result<std::vector<AccountConfig>> parse_accounts(const json& accounts, const std::string& source) {
  if (!accounts.is_array()) return at(source, "/accounts", "expected an array");
  std::vector<AccountConfig> out;
  for (size_t i = 0; i < accounts.size(); ++i) {
    auto a = parse_account(accounts[i], source, fmt::format("/accounts/{}", i));
    if (!a) return a.error();
    for (const auto& seen : out) {
      if (seen.name == a->name)
        return at(source, fmt::format("/accounts/{}/name", i),
                  "'" + a->name + "' is defined twice");
    }
    out.push_back(std::move(*a));
  }
  return out;
}

bool holds_inline_secret(const std::vector<AccountConfig>& accounts) {
  return std::any_of(accounts.begin(), accounts.end(),
                     [](const AccountConfig& a) { return !a.auth.key.empty(); });
}

std::optional<AccountConfig> account_from_environment(
    const std::map<std::string, std::string>& env) {
  auto get = [&](const char* k) {
    auto it = env.find(k);
    return it == env.end() ? std::string() : it->second;
  };
  const auto name = get("AZURE_BATCH_ACCOUNT"), endpoint = get("AZURE_BATCH_ENDPOINT");
  if (name.empty() || endpoint.empty() || get("AZURE_BATCH_ACCESS_KEY").empty() || name == "local")
    return std::nullopt;
  AccountConfig acc;
  acc.name = name;
  // `az batch` accepts an endpoint without a scheme; it means https.
  acc.endpoint =
      trim_endpoint(endpoint.find("://") == std::string::npos ? "https://" + endpoint : endpoint);
  acc.auth.kind = AuthKind::SharedKey;
  acc.auth.key_env = "AZURE_BATCH_ACCESS_KEY";
  acc.origin = AccountOrigin::Environment;
  return acc;
}

std::vector<AccountConfig> merge_accounts(std::vector<AccountConfig> config,
                                          std::vector<AccountConfig> others,
                                          std::vector<std::string>& notes) {
  for (auto& o : others) {
    bool clash = std::any_of(config.begin(), config.end(),
                             [&](const AccountConfig& c) { return c.name == o.name; });
    if (clash) {
      notes.push_back(
          fmt::format("account '{}' from the {} is ignored: config.json defines it", o.name,
                      o.origin == AccountOrigin::Environment ? "environment" : "management plane"));
      continue;
    }
    config.push_back(std::move(o));
  }
  return config;
}

std::map<std::string, std::string> environment_map() {
  std::map<std::string, std::string> env;
  for (char** e = environ; e && *e; ++e) {
    std::string s(*e);
    auto eq = s.find('=');
    if (eq != std::string::npos) env.emplace(s.substr(0, eq), s.substr(eq + 1));
  }
  return env;
}

Result<std::unique_ptr<Credential>> make_credential(const AccountConfig& a,
                                                    const std::map<std::string, std::string>& env,
                                                    std::shared_ptr<HttpClient> http) {
  const auto& auth = a.auth;
  switch (auth.kind) {
    case AuthKind::SharedKey: {
      auto key = resolve_secret(auth.key, auth.key_env, auth.key_command, env, a.name);
      if (!key) return key.error();
      return shared_key_credential(a.name, std::move(*key));
    }
    case AuthKind::ServicePrincipal: {
      auto secret =
          resolve_secret("", auth.client_secret_env, auth.client_secret_command, env, a.name);
      if (!secret) return secret.error();
      return client_secret_credential(auth.tenant, auth.client_id, std::move(*secret), auth.tokens,
                                      std::move(http));
    }
    case AuthKind::ManagedIdentity:
      return managed_identity_credential(
          auth.client_id.empty() ? std::nullopt : std::optional(auth.client_id), auth.tokens,
          std::move(http));
    case AuthKind::AzureCli:
      return azure_cli_credential(auth.az_path, auth.tokens.resource);
  }
  return make_error(ErrorKind::Internal, "unknown auth kind");
}

}  // namespace trainyard::azure
