// Internal: what a Batch pool costs now, for the Pool pane: its burn rate and what its idle
// dedicated nodes bill, from the prices the store's cache holds (the TUI never waits on the
// price API; `trainyard prices` fills the cache).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "app/settings.hpp"
#include "cost_report.hpp"
#include "pool_insight.hpp"
#include "store/store.hpp"

namespace trainyard {

/// A pool's cost per hour now.
struct PoolBurn {
  PricesUsed prices;  ///< !prices.known(): `prices.missing` says why
  PoolNodes nodes;
  std::optional<double> hourly;       ///< none: no price for a billed kind of node
  int64_t idle_dedicated = 0;         ///< dedicated nodes idle: billed, running nothing
  std::optional<double> idle_hourly;  ///< what they bill per hour
};

/// The region of `account`: from config.json or discovery (`region`, else its endpoint's host),
/// else from the cached account's endpoint; an error saying why when none names one.
Result<std::string> region_of_account(const Settings& settings, Store& store,
                                      const std::string& account);

/// The cached prices of `vm_size` in `region`, `settings.prices.discount` applied; missing
/// (saying which `trainyard prices` fetches them) when none are cached.
PricesUsed cached_prices_used(Store& store, const Settings& settings, const std::string& vm_size,
                              const std::string& region);

/// `pool`'s burn rate from its node counts and `tally` (its preempted and idle nodes), at the
/// cached prices of its size in `region`, `settings.prices.discount` applied.
PoolBurn pool_burn(Store& store, const Settings& settings, const Pool& pool, const PoolTally& tally,
                   const std::string& region);

}  // namespace trainyard
