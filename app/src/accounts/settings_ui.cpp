#include "settings_ui.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "key_config.hpp"
#include "settings_error.hpp"
#include "widgets/key.hpp"

namespace trainyard {
namespace {

using nlohmann::json;

Result<void> read_keys(const json& keys, Settings& s, const std::string& source) {
  if (!keys.is_object()) return settings_error(source, "/keys", "expected {\"action\": \"key\"}");
  for (const auto& [name, key] : keys.items()) {
    if (!key.is_string()) return settings_error(source, "/keys/" + name, "expected a key name");
    s.keys[name] = key.get<std::string>();
  }
  return check_key_overrides(s.keys, source);
}

Result<std::string> plugin_string(const json& p, const char* key, const std::string& source,
                                  const std::string& where) {
  if (!p.contains(key) || !p[key].is_string() || p[key].get<std::string>().empty())
    return settings_error(source, where + "/" + key, "expected a non-empty string");
  return p[key].get<std::string>();
}

Result<std::vector<std::string>> plugin_panes(const json& p, const std::string& source,
                                              const std::string& where) {
  const auto& names = plugin_pane_names();
  if (!p.contains("panes") || !p["panes"].is_array() || p["panes"].empty())
    return settings_error(source, where + "/panes",
                          "expected a list of pane names (e.g. [\"tasks\"])");
  std::vector<std::string> out;
  for (size_t i = 0; i < p["panes"].size(); ++i) {
    const auto& v = p["panes"][i];
    if (!v.is_string() ||
        std::find(names.begin(), names.end(), v.get<std::string>()) == names.end())
      return settings_error(source, fmt::format("{}/panes/{}", where, i),
                            fmt::format("expected one of {}", fmt::join(names, ", ")));
    out.push_back(v.get<std::string>());
  }
  return out;
}

Result<PluginSettings> read_plugin(const json& p, const std::string& source,
                                   const std::string& where) {
  if (!p.is_object()) return settings_error(source, where, "expected an object");
  for (const auto& [k, v] : p.items())
    if (k != "name" && k != "key" && k != "panes" && k != "command" && k != "timeoutSeconds")
      return settings_error(source, where + "/" + k, "unknown setting");
  PluginSettings out;
  auto name = plugin_string(p, "name", source, where);
  auto key = name ? plugin_string(p, "key", source, where) : name;
  auto command = key ? plugin_string(p, "command", source, where) : key;
  if (!command) return command.error();
  out.name = *name;
  out.key = *key;
  out.command = *command;
  if (!parse_key_name(out.key))
    return settings_error(source, where + "/key", "'" + out.key + "' is not a key name");
  auto panes = plugin_panes(p, source, where);
  if (!panes) return panes.error();
  out.panes = std::move(*panes);
  if (p.contains("timeoutSeconds")) {
    const auto& t = p["timeoutSeconds"];
    if (!t.is_number() || t.get<double>() < 1 || t.get<double>() > 3600)
      return settings_error(source, where + "/timeoutSeconds", "expected a number from 1 to 3600");
    out.timeout_seconds = t.get<double>();
  }
  return out;
}

Result<void> read_plugins(const json& arr, Settings& s, const std::string& source) {
  if (!arr.is_array()) return settings_error(source, "/plugins", "expected an array");
  for (size_t i = 0; i < arr.size(); ++i) {
    auto p = read_plugin(arr[i], source, fmt::format("/plugins/{}", i));
    if (!p) return p.error();
    s.plugins.push_back(std::move(*p));
  }
  return ok_result();
}

}  // namespace

const std::vector<std::string>& plugin_pane_names() {
  static const std::vector<std::string> names{"accounts", "pools",   "nodes",   "jobs",
                                              "tasks",    "logs",    "detail",  "gpus",
                                              "sweep",    "alljobs", "allpools"};
  return names;
}

Result<void> read_ui_settings(const json& j, Settings& s, const std::string& source) {
  if (j.contains("keys")) TY_TRY(read_keys(j["keys"], s, source));
  if (j.contains("plugins")) TY_TRY(read_plugins(j["plugins"], s, source));
  if (j.contains("mouse")) {
    if (!j["mouse"].is_boolean()) return settings_error(source, "/mouse", "expected true or false");
    s.mouse = j["mouse"].get<bool>();
  }
  if (j.contains("ascii")) {
    if (!j["ascii"].is_boolean()) return settings_error(source, "/ascii", "expected true or false");
    s.ascii = j["ascii"].get<bool>();
  }
  return ok_result();
}

}  // namespace trainyard
