#include "app/settings.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "alert_settings.hpp"
#include "budget_settings.hpp"
#include "core/json_error.hpp"
#include "settings_error.hpp"
#include "settings_ui.hpp"

namespace trainyard {
namespace {

using nlohmann::json;

constexpr int kConfigVersion = 1;

Result<void> only_keys(const json& obj, const std::set<std::string>& allowed,
                       const std::string& source, const std::string& where) {
  if (!obj.is_object())
    return settings_error(source, where.empty() ? "/" : where, "expected an object");
  for (const auto& [k, v] : obj.items()) {
    if (!allowed.count(k)) return settings_error(source, where + "/" + k, "unknown setting");
  }
  return ok_result();
}

Result<void> read_patterns(const json& arr, Settings& s, const std::string& source) {
  if (!arr.is_array()) return settings_error(source, "/metrics/patterns", "expected an array");
  for (size_t i = 0; i < arr.size(); ++i) {
    auto where = fmt::format("/metrics/patterns/{}", i);
    if (auto r = only_keys(arr[i], {"name", "regex"}, source, where); !r) return r;
    if (!arr[i].contains("name") || !arr[i]["name"].is_string() || !arr[i].contains("regex") ||
        !arr[i]["regex"].is_string())
      return settings_error(source, where, "needs \"name\" and \"regex\" strings");
    try {
      std::regex re(arr[i]["regex"].get<std::string>());
      if (re.mark_count() < 1)
        return settings_error(source, where + "/regex", "needs one capture group for the value");
    } catch (const std::regex_error& e) {
      return settings_error(source, where + "/regex", e.what());
    }
    s.metric_patterns.push_back(
        {arr[i]["name"].get<std::string>(), arr[i]["regex"].get<std::string>()});
  }
  return ok_result();
}

Result<void> read_metrics(const json& m, Settings& s, const std::string& source) {
  if (auto r = only_keys(m, {"patterns", "main"}, source, "/metrics"); !r) return r;
  if (m.contains("patterns"))
    if (auto r = read_patterns(m["patterns"], s, source); !r) return r;
  if (!m.contains("main")) return ok_result();
  if (!m["main"].is_object())
    return settings_error(source, "/metrics/main", "expected {\"job\": \"metric\"}");
  for (const auto& [job, metric] : m["main"].items()) {
    if (!metric.is_string())
      return settings_error(source, "/metrics/main/" + job, "expected a metric name");
    s.main_metric[job] = metric.get<std::string>();
  }
  return ok_result();
}

Result<void> read_local(const json& l, Settings& s, const std::string& source) {
  if (auto r = only_keys(l, {"cpuSlots", "alerts"}, source, "/local"); !r) return r;
  if (l.contains("alerts")) TY_TRY(parse_alerts(l["alerts"], source, "/local/alerts"));
  if (!l.contains("cpuSlots")) return ok_result();
  if (!l["cpuSlots"].is_number_integer() || l["cpuSlots"].get<int>() < 1 ||
      l["cpuSlots"].get<int>() > 1024)
    return settings_error(source, "/local/cpuSlots", "expected a whole number from 1 to 1024");
  s.cpu_slots = l["cpuSlots"].get<int>();
  return ok_result();
}

}  // namespace

Error settings_error(const std::string& source, const std::string& where, const std::string& what) {
  return make_error(ErrorKind::Parse, fmt::format("{}: {}: {}", source, where, what));
}

std::string default_config_path() {
  if (const char* p = std::getenv("TRAINYARD_CONFIG"); p && *p) return p;
  if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x)
    return std::string(x) + "/trainyard/config.json";
  const char* home = std::getenv("HOME");
  return std::string(home ? home : ".") + "/.config/trainyard/config.json";
}

// One positive number of `poll`, within [low, high].
Result<void> read_rate(const json& p, const char* key, double low, double high, double& out,
                       const std::string& source) {
  if (!p.contains(key)) return ok_result();
  if (!p[key].is_number() || p[key].get<double>() < low || p[key].get<double>() > high)
    return settings_error(source, std::string("/poll/") + key,
                          fmt::format("expected a number from {} to {}", low, high));
  out = p[key].get<double>();
  return ok_result();
}

Result<void> read_poll(const json& p, PollSettings& out, const std::string& source) {
  if (!p.is_object()) return settings_error(source, "/poll", "expected an object");
  TY_TRY(only_keys(p, {"focusSeconds", "backgroundSeconds", "requestsPerSecond", "noAnswerSeconds"},
                   source, "/poll"));
  TY_TRY(read_rate(p, "focusSeconds", 0.2, 60, out.focus_seconds, source));
  TY_TRY(read_rate(p, "backgroundSeconds", 5, 3600, out.background_seconds, source));
  TY_TRY(read_rate(p, "noAnswerSeconds", 1, 600, out.no_answer_seconds, source));
  return read_rate(p, "requestsPerSecond", 0.1, 100, out.requests_per_second, source);
}

Result<void> read_subscriptions(const json& arr, DiscoverySettings& out,
                                const std::string& source) {
  if (!arr.is_array())
    return settings_error(source, "/discovery/subscriptions", "expected an array");
  for (size_t i = 0; i < arr.size(); ++i) {
    if (!arr[i].is_string() || arr[i].get<std::string>().empty())
      return settings_error(source, fmt::format("/discovery/subscriptions/{}", i),
                            "expected a subscription id");
    out.subscriptions.push_back(arr[i].get<std::string>());
  }
  return ok_result();
}

// One optional string of `discovery`.
Result<void> read_discovery_string(const json& d, const char* key, std::string& out,
                                   const std::string& source) {
  if (!d.contains(key)) return ok_result();
  if (!d[key].is_string())
    return settings_error(source, std::string("/discovery/") + key, "expected a string");
  out = d[key].get<std::string>();
  return ok_result();
}

Result<void> read_discovery(const json& d, DiscoverySettings& out, const std::string& source) {
  TY_TRY(only_keys(d, {"enabled", "auth", "managementEndpoint", "subscriptions", "cacert"}, source,
                   "/discovery"));
  if (d.contains("enabled")) {
    if (!d["enabled"].is_boolean())
      return settings_error(source, "/discovery/enabled", "expected true or false");
    out.enabled = d["enabled"].get<bool>();
  }
  TY_TRY(read_discovery_string(d, "managementEndpoint", out.management_endpoint, source));
  while (!out.management_endpoint.empty() && out.management_endpoint.back() == '/')
    out.management_endpoint.pop_back();
  if (auto ok = azure::check_url_allowed(out.management_endpoint); !ok)
    return settings_error(source, "/discovery/managementEndpoint", ok.error().message);
  TY_TRY(read_discovery_string(d, "cacert", out.cacert, source));
  if (d.contains("subscriptions")) TY_TRY(read_subscriptions(d["subscriptions"], out, source));
  if (!d.contains("auth")) return ok_result();
  auto auth = azure::parse_discovery_auth(d["auth"], source);
  if (!auth) return auth.error();
  out.auth = std::move(*auth);
  return ok_result();
}

// `storageAccounts`, and each Batch account's `autoStorage` naming one of them.
Result<void> read_storage_accounts(const json& j, Settings& s, const std::string& source) {
  if (j.contains("storageAccounts")) {
    auto storage = azure::parse_storage_accounts(j["storageAccounts"], source);
    if (!storage) return storage.error();
    s.storage_accounts = std::move(*storage);
  }
  return azure::check_auto_storage(s.accounts, s.storage_accounts, source);
}

Result<Settings> parse_settings(const std::string& text, const std::string& source) {
  Settings s;
  s.source = source;
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    return make_error(ErrorKind::Parse, json_syntax_message(source, text, e.byte, e.what()));
  } catch (const json::out_of_range& e) {  // a number too large for a double
    return make_error(
        ErrorKind::Parse,
        json_syntax_message(source, text, json_overflow_byte(text, e.what()), e.what()));
  }
  if (auto r = only_keys(
          j,
          {"version", "theme", "local", "metrics", "accounts", "storageAccounts", "defaultAccount",
           "poll", "discovery", "keys", "plugins", "mouse", "ascii", "prices"},
          source, "");
      !r)
    return r.error();
  if (j.contains("version") &&
      (!j["version"].is_number_integer() || j["version"].get<int>() > kConfigVersion))
    return settings_error(source, "/version",
                          fmt::format("this trainyard reads config version {}", kConfigVersion));
  if (j.contains("theme")) {
    if (!j["theme"].is_string())
      return settings_error(source, "/theme", "expected a theme name or file");
    s.theme = j["theme"].get<std::string>();
  }
  if (j.contains("local"))
    if (auto r = read_local(j["local"], s, source); !r) return r.error();
  if (j.contains("metrics"))
    if (auto r = read_metrics(j["metrics"], s, source); !r) return r.error();
  if (j.contains("accounts")) {
    AlertConfig alerts;  // checked here, read by the TUI (load_alert_settings)
    TY_TRY(take_account_alerts(j["accounts"], alerts, source));
    TY_TRY(take_account_budgets(j["accounts"], s.budgets, source));
    auto accounts = azure::parse_accounts(j["accounts"], source);
    if (!accounts) return accounts.error();
    s.accounts = std::move(*accounts);
  }
  TY_TRY(read_storage_accounts(j, s, source));
  if (j.contains("poll"))
    if (auto r = read_poll(j["poll"], s.poll, source); !r) return r.error();
  if (j.contains("discovery"))
    if (auto r = read_discovery(j["discovery"], s.discovery, source); !r) return r.error();
  if (j.contains("prices")) {
    auto prices = azure::parse_price_settings(j["prices"], source);
    if (!prices) return prices.error();
    s.prices = std::move(*prices);
  }
  TY_TRY(read_ui_settings(j, s, source));
  if (j.contains("defaultAccount")) {
    if (!j["defaultAccount"].is_string())
      return settings_error(source, "/defaultAccount", "expected an account name");
    s.default_account = j["defaultAccount"].get<std::string>();
  }
  return s;
}

Result<Settings> load_settings(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Settings{};
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto s = parse_settings(text, path);
  if (!s) return s;
  // As ssh refuses a readable private key: a secret in a file others can read is refused.
  struct stat st {};
  bool inline_secret =
      azure::holds_inline_secret(s->accounts) || azure::holds_inline_secret(s->storage_accounts);
  if (inline_secret && ::stat(path.c_str(), &st) == 0 && (st.st_mode & 077) != 0) {
    return make_error(
        ErrorKind::Usage,
        fmt::format(
            "{}: holds an account key but is readable by others (mode {:o}); run: chmod 600 {}",
            path, st.st_mode & 0777, path));
  }
  return s;
}

namespace {

void add_secret_name(const std::string& name, std::vector<std::string>& out) {
  if (!name.empty() && std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
}

void add_secret_names(const azure::AuthConfig& auth, std::vector<std::string>& out) {
  for (const auto* name : {&auth.key_env, &auth.client_secret_env}) add_secret_name(*name, out);
}

}  // namespace

std::vector<std::string> secret_variable_names(const Settings& settings) {
  std::vector<std::string> out;
  for (const auto& a : settings.accounts) add_secret_names(a.auth, out);
  for (const auto& a : settings.storage_accounts) {
    add_secret_names(a.auth, out);
    add_secret_name(a.connection_string_env, out);
  }
  add_secret_names(settings.discovery.auth, out);
  return out;
}

}  // namespace trainyard
