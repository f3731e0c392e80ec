// Internal: an account's colour (config.json's `color`) as a band across the top line whenever
// a pane of that account is shown, so a production account is never mistaken for another.
#pragma once

#include <optional>
#include <string>

#include "app/settings.hpp"
#include "widgets/canvas.hpp"

namespace trainyard {

struct TuiState;

/// The band role of `account`'s colour; none when it has no colour.
std::optional<Role> account_role(const Settings& settings, const std::string& account);

/// Fills the rest of the crumbs line `line` (right of its text) in the focused pane's account
/// colour, with the account's name at its right end; nothing for an account without a colour
/// or a pane of no one account.
void render_account_band(const Settings& settings, const TuiState& st, Canvas& c, Rect line);

}  // namespace trainyard
