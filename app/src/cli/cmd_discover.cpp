// `trainyard accounts discover [--json]`: lists the Batch accounts of every subscription the
// configured credential sees (config.json `discovery`), caches them in the data directory and
// prints them. Only this command calls the management plane; every other one reads the cache.
#include "cmd_discover.hpp"

#include <sys/stat.h>

#include <cstdio>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "account_lookup.hpp"
#include "app/cli.hpp"
#include "app/context.hpp"
#include "azure/discovery.hpp"
#include "local/task_environment.hpp"
#include "output.hpp"

namespace trainyard {
namespace {

using nlohmann::json;

azure::DiscoveryOptions discovery_options(const DiscoverySettings& d) {
  azure::DiscoveryOptions o;
  o.management_endpoint = d.management_endpoint;
  o.subscriptions = d.subscriptions;
  o.account_auth = d.auth;
  return o;
}

Result<azure::DiscoveryResult> run_discovery(const DiscoverySettings& d) {
  if (!d.enabled)
    return make_error(ErrorKind::Usage, "discovery is off (config.json: discovery.enabled)");
  auto http = std::make_shared<azure::HttpClient>(azure::TlsOptions{d.cacert});
  auto credential =
      azure::make_credential(azure::management_account(d.auth), azure::environment_map(), http);
  if (!credential) return credential.error();
  auto found = azure::discover_accounts(*http, **credential, discovery_options(d));
  if (!found) return make_error(found.error().kind, "discover: " + found.error().message);
  return found;
}

Result<std::string> write_cache(const std::string& data_dir_flag,
                                const std::vector<azure::DiscoveredAccount>& accounts) {
  const std::string dir = resolve_data_dir(data_dir_flag);
  TY_TRY(make_directories(dir));
  ::chmod(dir.c_str(), 0700);  // as open_context leaves it
  const std::string path = azure::discovery_cache_path(dir);
  TY_TRY(azure::save_discovery_cache(path, accounts));
  return path;
}

void print_found(const std::vector<azure::DiscoveredAccount>& accounts, bool as_json) {
  if (as_json) {
    json listing = json::array();
    for (const auto& a : accounts) {
      listing.push_back({{"name", a.config.name},
                         {"endpoint", a.config.endpoint},
                         {"subscription", a.subscription},
                         {"resourceGroup", a.resource_group},
                         {"location", a.location}});
    }
    out::json(listing);
    return;
  }
  out::print("{:<24} {:<38} {}", "NAME", "SUBSCRIPTION", "ENDPOINT");
  for (const auto& a : accounts)
    out::print("{:<24} {:<38} {}", a.config.name, a.subscription, a.config.endpoint);
}

int accounts_discover(const std::string& data_dir_flag, bool as_json) {
  auto settings = load_settings(default_config_path());
  if (!settings) return report(settings.error());
  auto found = run_discovery(settings->discovery);
  if (!found) return report(found.error());
  for (const auto& n : found->notes) out::eprint("trainyard: {}", n);
  auto path = write_cache(data_dir_flag, found->accounts);
  if (!path) return report(path.error());
  print_found(found->accounts, as_json);
  if (!as_json) {
    out::print("cached {} discovered account(s) in {}", found->accounts.size(), *path);
  }
  return kExitOk;
}

}  // namespace

void register_discover(CLI::App& accounts, CliState& st) {
  auto as_json = std::make_shared<bool>(false);
  auto* discover = accounts.add_subcommand(
      "discover", "Find the Batch accounts of every subscription the credential sees (cached)");
  discover->add_flag("--json", *as_json, "JSON output");
  discover->callback([&st, as_json] {
    st.action = [&st, as_json] { return accounts_discover(st.data_dir, *as_json); };
  });
}

}  // namespace trainyard
