// Internal: what the JSON view (`y`) shows: an entity of the store as Batch wire JSON.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "store/store.hpp"
#include "tui_pane.hpp"

namespace trainyard {

/// The entity a JSON frame names (its `entity`, `kind/id`, in its account, pool and job) as
/// Batch wire JSON; a local task adds `localRun`, its run record. None when the store has none.
std::optional<nlohmann::json> read_entity_json(Store& store, const Frame& f);
/// Replaces the value of each `sig=` query parameter in `j`'s strings (a SAS token is a
/// secret) with `REDACTED`.
void redact_signatures(nlohmann::json& j);
/// `j` pretty-printed (two spaces), one sanitized line each.
std::vector<std::string> json_lines(const nlohmann::json& j);

}  // namespace trainyard
