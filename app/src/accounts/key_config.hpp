// Internal: the actions by the names the help shows, and config.json's `keys` checked against
// them.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "key_actions.hpp"

namespace trainyard {

/// `stop`, `page-down`: the name the help shows for `a` and `keys` in config.json takes.
std::string action_id(Action a);

/// The canonical name of a key (`PageDown` → `NPage`), as bindings spell it; a name that does
/// not parse is kept as it is.
std::string canonical_key(const std::string& name);

/// The action named `id`; none for an unknown name.
std::optional<Action> action_by_id(const std::string& id);

/// Checks config.json's `keys` (action name → key): an unknown action or a key name that does
/// not parse is an error naming `source` and `/keys/<name>`.
Result<void> check_key_overrides(const std::map<std::string, std::string>& keys,
                                 const std::string& source);

}  // namespace trainyard
