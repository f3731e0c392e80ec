// The prices last read from the Retail Prices API, per VM size, region and kind, with the time
// they were fetched: `trainyard prices` answers from them while they are fresh, and offline.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/prices.hpp"
#include "core/result.hpp"
#include "core/time.hpp"
#include "store/store.hpp"

namespace trainyard {

/// One cached price and when it was fetched.
struct CachedPrice {
  VmPrice price;
  Timestamp fetched_at{};
  bool operator==(const CachedPrice&) const = default;
};

/// What the cache holds for a query.
struct CachedPrices {
  std::vector<CachedPrice> prices;  ///< by region, then kind (dedicated, Spot, low-priority)
  /// When the newest fetch that covers the query was made (a fetch of all regions covers each
  /// one); nullopt when none was, so that an empty list means "never asked".
  std::optional<Timestamp> fetched_at;
};

/// Replaces what the cache holds for `vm_size` in `region` (empty: every region) with `prices`,
/// fetched at `at`, in one transaction: a failure leaves the cache as it was. Sizes and regions
/// compare without regard to ASCII case.
Result<void> store_prices(Store& store, const std::string& vm_size, const std::string& region,
                          const std::vector<VmPrice>& prices, Timestamp at);

/// The cached prices of `vm_size` in `region` (empty: every region).
Result<CachedPrices> cached_prices(Store& store, const std::string& vm_size,
                                   const std::string& region);

}  // namespace trainyard
