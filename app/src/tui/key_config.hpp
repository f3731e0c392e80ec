// Internal: the actions by the names the help shows, and config.json's `keys` applied to the
// default bindings.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "app/keymap.hpp"
#include "core/result.hpp"

namespace trainyard {

/// `stop`, `page-down`: the name the help shows for `a` and `keys` in config.json takes.
std::string action_id(Action a);

/// The action named `id`; none for an unknown name.
std::optional<Action> action_by_id(const std::string& id);

/// Checks config.json's `keys` (action name → key): an unknown action or a key name that does
/// not parse is an error naming `source` and `/keys/<name>`.
Result<void> check_key_overrides(const std::map<std::string, std::string>& keys,
                                 const std::string& source);

/// `defaults` with each action named in `keys` on its new key instead of its old ones (every
/// context that binds it); in such a context, another binding of that key gives way.
std::vector<Binding> bindings_with(const std::vector<Binding>& defaults,
                                   const std::map<std::string, std::string>& keys);

}  // namespace trainyard
