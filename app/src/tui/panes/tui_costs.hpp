// Internal: costs in the TUI (tui_costs.cpp): which accounts the cost watcher works out, the
// costs and budget alerts it hands over, the Jobs pane's cost and waste lines, and the warning
// that quitting leaves idle dedicated nodes billing.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tui_state.hpp"

namespace trainyard {

/// Tells the watcher which accounts to work out: the focused Batch account, those polled and
/// those with a budget.
void watch_costs(AppContext& ctx, TuiState& st);
/// Takes the watcher's newest costs and tells its budget alerts; true when the costs changed.
bool take_costs(TuiState& st);
/// The costs of `account` on screen; null when none were worked out.
const AccountCosts* shown_costs(const TuiState& st, const std::string& account);

/// One line of text and how it is drawn.
struct CostLine {
  std::string text;
  Role role = Role::Default;
};

/// The Jobs pane's lines above the table for `c`: what the jobs cost so far and projected
/// (against the account's budget), the burn rate and the prices used; then the waste, if any.
std::vector<CostLine> cost_lines(const AccountCosts& c);

/// What quitting leaves billing: `contoso: 2 idle dedicated node(s) billing 7.35 USD/h (gpu)`
/// for each account with idle dedicated nodes; none when there are none.
std::optional<std::string> idle_billing_warning(const TuiState& st);

}  // namespace trainyard
