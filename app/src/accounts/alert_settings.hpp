// Internal: the `alerts` of config.json: event names, and reading one account's alerts.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/result.hpp"

namespace trainyard {

/// What an alert is about (docs/config.md, `alerts`).
enum class AlertKind {
  TaskFailed,
  TaskSucceeded,
  JobCompleted,
  Preempted,
  ResizeDone,
  BudgetCrossed  ///< a projection to completion went past a `budget`
};

/// An account's `alerts` (`local.alerts` for the local engine): which events alert, and how.
/// The status line tells each one; the bell and the command are optional.
struct AlertSettings {
  std::vector<AlertKind> on;
  bool bell = false;
  std::string command;       ///< run by /bin/sh -c on a worker; empty: none
  int timeout_seconds = 10;  ///< the command is killed after this
};

/// Alert settings by account name (`local`: the local engine).
using AlertConfig = std::map<std::string, AlertSettings>;

/// The name config.json and the command's $EVENT use: `task_failed`, `job_completed`, …
const char* alert_name(AlertKind k);
/// The kind a name stands for; none when it is not one.
std::optional<AlertKind> alert_kind(std::string_view name);

/// Reads one `alerts` object at `where` (`/accounts/2/alerts`); a Parse error naming `source`
/// and the place of what is wrong.
Result<AlertSettings> parse_alerts(const nlohmann::json& j, const std::string& source,
                                   const std::string& where);

/// The alerts of config.json at `path` (none when it does not exist); errors as parse_alerts.
Result<AlertConfig> load_alert_settings(const std::string& path);

/// Takes each account's `alerts` out of `accounts` (what azure::parse_accounts reads does not
/// know them) into `out`, by the account's name.
Result<void> take_account_alerts(nlohmann::json& accounts,
                                 std::map<std::string, AlertSettings>& out,
                                 const std::string& source);

}  // namespace trainyard
