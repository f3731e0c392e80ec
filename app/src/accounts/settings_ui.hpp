// Internal: config.json's settings of the TUI's keys: `keys` (rebound actions) and `plugins`
// (commands on a key).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "app/settings.hpp"
#include "core/result.hpp"

namespace trainyard {

/// The pane names a plugin's `panes` may list (each a pane's `name()`).
const std::vector<std::string>& plugin_pane_names();

/// Reads `keys` and `plugins` of the config object `j` into `s`; an error names `source` and
/// the JSON place (`/keys/stpo`, `/plugins/0/key`).
Result<void> read_ui_settings(const nlohmann::json& j, Settings& s, const std::string& source);

}  // namespace trainyard
