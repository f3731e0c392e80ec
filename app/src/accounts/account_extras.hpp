// Internal: settings that sit on an account's entry in config.json but are trainyard's own
// (`alerts`, `budget`): taken out before azure::parse_accounts, which does not know them.
#pragma once

#include <map>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/result.hpp"

namespace trainyard {

/// Takes each account's `key` out of `accounts` into `out` by the account's name, parsed by
/// `parse(json, source, where)` (`where`: `/accounts/2/key`); its error stops the reading.
template <typename T, typename Parse>
Result<void> take_from_accounts(nlohmann::json& accounts, const std::string& key,
                                std::map<std::string, T>& out, const std::string& source,
                                Parse parse) {
  if (!accounts.is_array()) return {};  // parse_accounts says what is wrong
  for (size_t i = 0; i < accounts.size(); ++i) {
    auto& a = accounts[i];
    if (!a.is_object() || !a.contains(key)) continue;
    Result<T> value = parse(a[key], source, fmt::format("/accounts/{}/{}", i, key));
    if (!value) return value.error();
    if (a.contains("name") && a["name"].is_string()) out[a["name"].get<std::string>()] = *value;
    a.erase(key);
  }
  return {};
}

}  // namespace trainyard
