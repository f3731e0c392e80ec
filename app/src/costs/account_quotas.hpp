// Internal: an account's quotas as the management plane gave them when the account was
// discovered (the discovery cache), with where they come from.
#pragma once

#include <optional>
#include <string>

#include "azure/discovery.hpp"

namespace trainyard {

/// What is known of an account's quotas.
struct QuotaLookup {
  std::optional<azure::AccountQuotas> quotas;  ///< none: not known
  std::string source;                          ///< where they come from, or why none
};

/// The quotas of `account` in `<data_dir>/discovered-accounts.json`.
QuotaLookup account_quotas(const std::string& data_dir, const std::string& account);

}  // namespace trainyard
