// The typed settings from config.json (docs/config.md), passed by reference, never global.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "azure/accounts.hpp"
#include "azure/discovery.hpp"
#include "azure/prices.hpp"
#include "azure/storage_accounts.hpp"

#include "core/result.hpp"
#include "sync/log_metrics.hpp"

namespace trainyard {

/// `poll`: how Batch accounts are polled.
struct PollSettings {
  double focus_seconds = 1.5;      ///< what is on screen
  double background_seconds = 45;  ///< the rest of the account
  double requests_per_second = 4;  ///< one budget per account, shared by every pane
  double no_answer_seconds = 15;   ///< a request unanswered this long marks the account stale
};

/// `discovery`: Batch accounts found through the management plane (`trainyard accounts discover`).
struct DiscoverySettings {
  bool enabled = true;                      ///< false: no discovery, and a cached list is ignored
  azure::AuthConfig auth = default_auth();  ///< a token kind; the discovered accounts use it too
  std::string management_endpoint = azure::kManagementEndpoint;
  std::vector<std::string> subscriptions;  ///< only these; empty: every one the credential sees
  std::string cacert;                      ///< extra CA bundle for the management endpoint

  /// `az` login: what a user on a DSVM most likely has.
  static azure::AuthConfig default_auth() {
    azure::AuthConfig a;
    a.kind = azure::AuthKind::AzureCli;
    return a;
  }
};

/// `plugins`: a command on a key for some panes, run with the selected row in its environment.
struct PluginSettings {
  std::string name;                ///< `gpu-top`: the help's and the output pane's name
  std::string key;                 ///< tmux-style key name (`H`)
  std::vector<std::string> panes;  ///< pane names (`tasks`); the key works only there
  std::string command;             ///< run with /bin/sh -c
  double timeout_seconds = 30;     ///< `timeoutSeconds`: the command is killed after this
};

/// An account's `budget`, in the currency of its prices: what its jobs may cost together and
/// each named job; the status line and the account's alert command warn when a projection to
/// completion crosses one.
struct Budget {
  std::optional<double> total;         ///< `total`: the account's jobs together
  std::map<std::string, double> jobs;  ///< `jobs`: by job id
};

/// Settings with their defaults; a missing config file gives exactly these.
struct Settings {
  std::string theme = "dark";
  int cpu_slots = 0;  ///< local CPU slots when there is no GPU; 0: $TRAINYARD_CPU_SLOTS or 1
  std::vector<MetricPattern> metric_patterns;
  std::map<std::string, std::string> main_metric;  ///< job id → metric shown in tables
  std::vector<azure::AccountConfig> accounts;      ///< `accounts`: Batch and emulator accounts
  std::map<std::string, Budget> budgets;           ///< each account's `budget`, by its name
  std::string default_account;                     ///< `defaultAccount`; empty: `local`
  std::vector<azure::StorageAccountConfig> storage_accounts;  ///< `storageAccounts`
  PollSettings poll;
  DiscoverySettings discovery;
  azure::PriceSettings prices;              ///< `prices`: the Retail Prices API, a discount
  std::map<std::string, std::string> keys;  ///< `keys`: action name → key (`stop` → `K`)
  std::vector<PluginSettings> plugins;      ///< `plugins`
  bool mouse = true;                        ///< `mouse`: clicks and the wheel in the TUI
  bool ascii = false;  ///< `ascii`: the TUI draws in ASCII even on a UTF-8 terminal
  std::string source;  ///< the file they came from, empty for defaults
  /// Not from config.json: the data directory once a command resolved it (discovered accounts
  /// are cached there); empty: resolve_data_dir("").
  std::string data_dir;
};

/// `$TRAINYARD_CONFIG`, else `$XDG_CONFIG_HOME/trainyard/config.json`, else `~/.config/…`.
std::string default_config_path();

/// Reads settings; a missing file gives defaults. Errors name the file and the JSON place.
Result<Settings> load_settings(const std::string& path);

/// Parses settings text; `source` names it in errors.
Result<Settings> parse_settings(const std::string& text, const std::string& source);

/// The environment variables the settings name as secret sources (every account's, storage
/// account's and the discovery credential's `keyEnv`, `clientSecretEnv` and
/// `connectionStringEnv`), each once: no task or supervisor inherits them.
std::vector<std::string> secret_variable_names(const Settings& settings);

}  // namespace trainyard
