// Reading config.json objects: one-line errors naming the file and the JSON pointer, optional
// string members, and unknown keys refused (a typo must not silently drop a setting).
#pragma once

#include <algorithm>
#include <iterator>
#include <optional>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/result.hpp"

namespace trainyard::azure::config_json {

/// `source: pointer: what`, of kind Parse.
inline Error at(const std::string& source, const std::string& pointer, const std::string& what) {
  return make_error(ErrorKind::Parse, fmt::format("{}: {}: {}", source, pointer, what));
}

/// Reads an optional string member; false (with `err`) when it is there but not a string.
inline bool opt_string(const nlohmann::json& o, const char* key, std::string& out,
                       const std::string& source, const std::string& pointer, Error& err) {
  if (!o.contains(key)) return true;
  if (!o[key].is_string()) {
    err = at(source, pointer + "/" + key, "expected a string");
    return false;
  }
  out = o[key].get<std::string>();
  return true;
}

/// The first key of `o` not in `known`, as an error naming it.
template <size_t N>
std::optional<Error> unknown_key(const nlohmann::json& o, const char* const (&known)[N],
                                 const std::string& source, const std::string& ptr) {
  for (const auto& item : o.items()) {
    const std::string& k = item.key();
    if (std::find_if(std::begin(known), std::end(known), [&](const char* x) { return k == x; }) ==
        std::end(known)) {
      return at(source, ptr + "/" + k, "unknown key");
    }
  }
  return std::nullopt;
}

}  // namespace trainyard::azure::config_json
