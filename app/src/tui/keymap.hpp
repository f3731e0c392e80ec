// Keybindings as data: the dispatcher, the help overlay and the hint bar all read this table.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "key_actions.hpp"
#include "widgets/key.hpp"

namespace trainyard {

/// The default bindings.
const std::vector<Binding>& default_bindings();

/// Printable name of a context (help headings).
const char* context_name(Context c);

/// The action bound to `key` in the first of `contexts` that binds it.
std::optional<Action> lookup_action(const std::vector<Binding>& bindings,
                                    const std::vector<Context>& contexts, const KeyEvent& key);

/// `defaults` with each action named in `keys` on its new key instead of its old ones (every
/// context that binds it); in such a context, another binding of that key gives way.
std::vector<Binding> bindings_with(const std::vector<Binding>& defaults,
                                   const std::map<std::string, std::string>& keys);

}  // namespace trainyard
