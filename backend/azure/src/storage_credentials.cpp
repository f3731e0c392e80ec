// Turning a storage account's configuration into its endpoint and a credential: the secret is
// read now (inline, a variable, a command) and kept only inside the credential.
#include <fmt/format.h>

#include "azure/blob_auth.hpp"
#include "azure/storage_accounts.hpp"
#include "secret_command.hpp"

namespace trainyard::azure {

namespace {

StorageTarget from_connection(StorageConnection c) {
  StorageTarget t;
  t.account_name = c.account_name;
  t.blob_endpoint = c.blob_endpoint;
  // As `az storage`: a key when there is one, else the SAS; login asks `az` for a token.
  if (c.login) {
    t.credential = azure_cli_credential("az", kStorageResource);
  } else if (!c.account_key.empty()) {
    t.sas_signer = std::make_shared<const SasSigner>(c.account_key);
    t.credential = blob_shared_key_credential(c.account_name, std::move(c.account_key));
  } else {
    t.credential = sas_credential(std::move(c.sas_token));
  }
  return t;
}

Error named(const StorageAccountConfig& a, const Error& e) {
  return make_error(e.kind, fmt::format("storage account {}: {}", a.name, e.message));
}

Result<StorageTarget> from_environment(const StorageAccountConfig& a,
                                       const std::map<std::string, std::string>& env) {
  auto c = connection_from_environment(env);
  if (!c) return named(a, c.error());
  if (!*c) return make_error(ErrorKind::Auth, "the AZURE_STORAGE_* variables are not set");
  return from_connection(std::move(**c));
}

Result<StorageTarget> from_connection_string(const StorageAccountConfig& a,
                                             const std::map<std::string, std::string>& env) {
  auto text = resolve_secret(a.connection_string, a.connection_string_env,
                             a.connection_string_command, env, a.name);
  if (!text) return text.error();
  auto c = parse_connection_string(*text);
  if (!c) return named(a, c.error());
  return from_connection(std::move(*c));
}

Result<StorageTarget> from_auth(const StorageAccountConfig& a,
                                const std::map<std::string, std::string>& env,
                                std::shared_ptr<HttpClient> http) {
  StorageTarget t{a.account_name, a.endpoint, nullptr, nullptr};
  if (a.auth.kind == AuthKind::SharedKey) {
    auto key = resolve_secret(a.auth.key, a.auth.key_env, a.auth.key_command, env, a.name);
    if (!key) return key.error();
    t.sas_signer = std::make_shared<const SasSigner>(*key);
    t.credential = blob_shared_key_credential(a.account_name, std::move(*key));
    return t;
  }
  AccountConfig tokens;  // the token kinds are Batch's, with Storage's audience
  tokens.name = a.name;
  tokens.auth = a.auth;
  tokens.auth.tokens.resource = kStorageResource;
  auto cred = make_credential(tokens, env, std::move(http));
  if (!cred) return cred.error();
  t.credential = std::move(*cred);
  return t;
}

}  // namespace

Result<StorageTarget> resolve_storage_account(const StorageAccountConfig& account,
                                              const std::map<std::string, std::string>& env,
                                              std::shared_ptr<HttpClient> http) {
  if (account.origin == AccountOrigin::Environment) return from_environment(account, env);
  if (!account.connection_string.empty() || !account.connection_string_env.empty() ||
      !account.connection_string_command.empty())
    return from_connection_string(account, env);
  return from_auth(account, env, std::move(http));
}

}  // namespace trainyard::azure
