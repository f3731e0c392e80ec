#include "alert_settings.hpp"

#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "account_extras.hpp"
#include "settings_error.hpp"

namespace trainyard {
namespace {

using nlohmann::json;

constexpr std::pair<AlertKind, const char*> kNames[] = {
    {AlertKind::TaskFailed, "task_failed"},     {AlertKind::TaskSucceeded, "task_succeeded"},
    {AlertKind::JobCompleted, "job_completed"}, {AlertKind::Preempted, "preempted"},
    {AlertKind::ResizeDone, "resize_done"},     {AlertKind::BudgetCrossed, "budget_crossed"},
};

std::string every_name() {
  std::string out;
  for (const auto& [kind, name] : kNames) out += (out.empty() ? "" : ", ") + std::string(name);
  return out;
}

Result<void> read_events(const json& on, AlertSettings& out, const std::string& source,
                         const std::string& where) {
  if (!on.is_array())
    return settings_error(source, where, "expected an array of events (" + every_name() + ")");
  for (size_t i = 0; i < on.size(); ++i) {
    auto kind = on[i].is_string() ? alert_kind(on[i].get<std::string>()) : std::nullopt;
    if (!kind)
      return settings_error(source, fmt::format("{}/{}", where, i),
                            "unknown event (" + every_name() + ")");
    out.on.push_back(*kind);
  }
  return {};
}

}  // namespace

const char* alert_name(AlertKind k) {
  for (const auto& [kind, name] : kNames)
    if (kind == k) return name;
  return "";
}

std::optional<AlertKind> alert_kind(std::string_view name) {
  for (const auto& [kind, n] : kNames)
    if (name == n) return kind;
  return std::nullopt;
}

Result<AlertSettings> parse_alerts(const json& j, const std::string& source,
                                   const std::string& where) {
  if (!j.is_object()) return settings_error(source, where, "expected an object");
  AlertSettings out;
  for (const auto& [key, value] : j.items()) {
    const auto place = where + "/" + key;
    if (key == "on") {
      TY_TRY(read_events(value, out, source, place));
    } else if (key == "bell") {
      if (!value.is_boolean()) return settings_error(source, place, "expected true or false");
      out.bell = value.get<bool>();
    } else if (key == "command") {
      if (!value.is_string()) return settings_error(source, place, "expected a shell command");
      out.command = value.get<std::string>();
    } else if (key == "timeoutSeconds") {
      if (!value.is_number_integer() || value.get<int64_t>() < 1 || value.get<int64_t>() > 600)
        return settings_error(source, place, "expected a whole number from 1 to 600");
      out.timeout_seconds = value.get<int>();
    } else {
      return settings_error(source, place, "unknown setting");
    }
  }
  return out;
}

Result<void> take_account_alerts(json& accounts, std::map<std::string, AlertSettings>& out,
                                 const std::string& source) {
  return take_from_accounts(accounts, "alerts", out, source, parse_alerts);
}

Result<AlertConfig> load_alert_settings(const std::string& path) {
  AlertConfig out;
  std::ifstream in(path);
  if (path.empty() || !in) return out;
  // load_settings already refused a malformed file; this one reads only what alerts need.
  auto j = json::parse(in, nullptr, false);
  if (!j.is_object()) return out;
  if (j.contains("accounts")) TY_TRY(take_account_alerts(j["accounts"], out, path));
  if (j.contains("local") && j["local"].is_object() && j["local"].contains("alerts")) {
    auto local = parse_alerts(j["local"]["alerts"], path, "/local/alerts");
    if (!local) return local.error();
    out["local"] = *local;
  }
  return out;
}

}  // namespace trainyard
