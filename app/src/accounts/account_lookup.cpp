#include "account_lookup.hpp"

#include <fmt/format.h>

#include "store/store.hpp"

namespace trainyard {

std::string discovery_cache_file(const Settings& settings) {
  return azure::discovery_cache_path(settings.data_dir.empty() ? resolve_data_dir("")
                                                               : settings.data_dir);
}

namespace {

// The list `accounts discover` cached (no management-plane call on every start), less the names
// the environment's account already has.
std::vector<azure::AccountConfig> cached_discovered(const Settings& settings,
                                                    const std::vector<azure::AccountConfig>& env,
                                                    std::vector<std::string>& notes) {
  std::vector<azure::AccountConfig> out;
  if (!settings.discovery.enabled) return out;
  auto cached =
      azure::load_discovery_cache(discovery_cache_file(settings), settings.discovery.auth);
  if (!cached) {
    notes.push_back(cached.error().message + " (run trainyard accounts discover)");
    return out;
  }
  for (auto& d : *cached) {
    if (!env.empty() && env.front().name == d.config.name) {
      notes.push_back(fmt::format(
          "account '{}' from the management plane is ignored: the environment defines it",
          d.config.name));
      continue;
    }
    // The emulator serves the management plane and its account on one port, with one CA.
    d.config.cacert = settings.discovery.cacert;
    out.push_back(std::move(d.config));
  }
  return out;
}

}  // namespace

std::vector<azure::AccountConfig> known_accounts(const Settings& settings,
                                                 std::vector<std::string>& notes) {
  std::vector<azure::AccountConfig> env;
  if (auto e = azure::account_from_environment(azure::environment_map())) env.push_back(*e);
  auto discovered = cached_discovered(settings, env, notes);
  env.insert(env.end(), std::make_move_iterator(discovered.begin()),
             std::make_move_iterator(discovered.end()));
  return azure::merge_accounts(settings.accounts, std::move(env), notes);
}

std::optional<std::string> environment_account_clash(const Settings& settings) {
  auto env = azure::account_from_environment(azure::environment_map());
  if (!env) return std::nullopt;
  for (const auto& a : settings.accounts)
    if (a.name == env->name)
      return fmt::format(
          "AZURE_BATCH_ACCOUNT names '{}', which config.json also defines: trainyard uses "
          "config.json's endpoint and credentials and ignores the AZURE_BATCH_* variables "
          "(az batch uses them)",
          a.name);
  return std::nullopt;
}

Result<azure::AccountConfig> find_account(const Settings& settings, const std::string& name) {
  std::vector<std::string> notes;
  auto accounts = known_accounts(settings, notes);
  std::string names = "local";
  for (const auto& a : accounts) {
    if (a.name == name) return a;
    names += ", " + a.name;
  }
  return make_error(ErrorKind::Usage, fmt::format("unknown account '{}' (known: {})", name, names));
}

Result<std::unique_ptr<azure::BatchClient>> open_batch_client(const azure::AccountConfig& account,
                                                              const Clock& clock) {
  auto http = std::make_shared<azure::HttpClient>(azure::TlsOptions{account.cacert});
  auto credential = azure::make_credential(account, azure::environment_map(), http);
  if (!credential) return credential.error();
  azure::BatchClientOptions options;
  options.account = account.name;
  options.endpoint = account.endpoint;
  return std::make_unique<azure::BatchClient>(options, http, std::move(*credential), clock);
}

}  // namespace trainyard
