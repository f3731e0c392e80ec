// Internal: reading each account's `budget` from config.json's `accounts`.
#pragma once

#include <map>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "app/settings.hpp"
#include "core/result.hpp"

namespace trainyard {

/// Takes each account's `budget` (`{"total": 500, "jobs": {"train": 120}}`, positive amounts)
/// out of `accounts` (what azure::parse_accounts reads does not know it) into `out`, by the
/// account's name; a Parse error naming `source` and the place of what is wrong.
Result<void> take_account_budgets(nlohmann::json& accounts, std::map<std::string, Budget>& out,
                                  const std::string& source);

}  // namespace trainyard
