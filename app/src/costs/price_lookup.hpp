// Internal: VM prices for `trainyard prices` (and what shows costs): the store's cache while it
// is fresh, else the Retail Prices API, else, when the API is out of reach, the cache of any age.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "azure/http.hpp"
#include "azure/prices.hpp"
#include "core/result.hpp"
#include "store/price_cache.hpp"

namespace trainyard {

/// How long fetched prices answer without asking the API again.
inline constexpr std::chrono::hours kPriceFreshness{24};

/// Prices for one query and where they came from.
struct PriceAnswer {
  std::vector<CachedPrice> prices;
  Timestamp fetched_at{};   ///< when the API gave them
  bool from_cache = false;  ///< read from the store, not fetched now
  std::string offline;  ///< why the API was not used although the cache was stale or refresh asked
  std::string note;     ///< a warning that changes nothing shown (the cache could not be written)
};

/// The prices of `q`: the cache when it covers `q`, is under kPriceFreshness old and `refresh`
/// is false; else the API (`settings.endpoint`), whose answer replaces the cache; else, when the
/// API fails, the cache whatever its age, saying why. An error only when neither answers.
Result<PriceAnswer> look_up_prices(Store& store, azure::HttpClient& http,
                                   const azure::PriceSettings& settings, const azure::PriceQuery& q,
                                   bool refresh, Timestamp now);

/// One region's prices per hour, the discount applied; nullopt where the API has no row.
struct RegionPrices {
  std::string region;
  std::string vm_size;
  std::optional<double> dedicated, spot, low_priority;
  std::string currency;
  Timestamp fetched_at{};
};

/// `hourly` × `discount`, to 1e-8 (so that 0.6124 × 0.8 reads 0.48992, not 0.48992000000000004).
double discounted(double hourly, double discount);

/// One row per region, sorted by Spot price, regions without one last, then by name.
std::vector<RegionPrices> prices_by_region(const std::vector<CachedPrice>& prices, double discount);

}  // namespace trainyard
