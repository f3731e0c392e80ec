// The Azure Retail Prices API (no sign-in): hourly Linux VM prices per size and region,
// dedicated, Spot and low-priority, read page by page.
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "azure/http.hpp"
#include "azure/retry.hpp"
#include "core/prices.hpp"
#include "core/result.hpp"

namespace trainyard::azure {

/// The public service.
inline constexpr const char* kPricesEndpoint = "https://prices.azure.com";
/// The API version whose shape the parser reads.
inline constexpr const char* kPricesApiVersion = "2023-01-01-preview";

/// config.json's `prices`.
struct PriceSettings {
  std::string endpoint = kPricesEndpoint;  ///< `endpoint`: scheme and host (tests: loopback)
  double discount = 1.0;                   ///< `discount`: factor on every price, 0 < f <= 1
};

/// Reads `prices` (`{"endpoint", "discount"}`); errors name `source` and the JSON pointer.
Result<PriceSettings> parse_price_settings(const nlohmann::json& prices, const std::string& source);

/// What to ask for: one VM size, in one region or (empty) all of them.
struct PriceQuery {
  std::string vm_size;
  std::string region;
};

/// A size or region fit for a filter (letters, digits, `_`, `-`); a Usage error otherwise.
Result<void> check_price_query(const PriceQuery& q);

/// `vm_size` spelled as the API's armSkuName (`standard_nc4as_t4_v3`, as Batch reports pool
/// sizes, reads `Standard_NC4as_T4_v3`): the tier capitalized, the family's letters before its
/// digits upper case and its feature letters after them lower case, a version (`v3`) lower case,
/// other parts (an accelerator, `A100`) upper case, `Promo` capitalized.
std::string arm_sku_name(std::string_view vm_size);

/// The `$filter` for a query (the size as arm_sku_name spells it, the region in lower case, as the
/// API compares case-sensitively): Virtual Machines, consumption prices, the size, and the region
/// when given.
std::string price_filter(const PriceQuery& q);

/// One page of the API's answer: the Linux consumption rows it holds, and the next page's link.
struct PricePage {
  std::vector<VmPrice> prices;
  std::string next_link;  ///< `NextPageLink`; empty on the last page
};

/// Parses one page. Windows rows (productName ending in ` Windows`), reservations, dev/test
/// rates and rows priced per other units than hours (`1 Hour`, `N Hours`; `1/Hour`) are left
/// out; a price per N hours is divided by N. Strings are sanitized. Malformed JSON or a row of
/// the wrong shape is a Parse error naming `source` and the place (`line:column` or
/// `/Items/3/retailPrice`).
Result<PricePage> parse_price_page(std::string_view body, const std::string& source);

/// One price per (region, kind): the row with the newest effectiveStartDate, the first listed on
/// a tie. Sorted by region, then kind.
std::vector<VmPrice> newest_prices(std::vector<VmPrice> rows);

/// How to reach the API.
struct PriceClientOptions {
  std::string endpoint = kPricesEndpoint;
  std::chrono::milliseconds timeout{30000};  ///< per request
  /// Few, short retries: when the service is out of reach the cached prices are shown instead.
  RetryPolicy retry{2, std::chrono::milliseconds(500), std::chrono::milliseconds(5000), 0.5};
  int max_pages = 50;  ///< a server that pages forever stops here, with an error
};

/// Every page for `q` (following NextPageLink, which must stay on the endpoint's scheme, host
/// and port), reduced by newest_prices. Errors name the host: Network when it cannot be reached,
/// Http for an error status, Parse for a malformed page.
Result<std::vector<VmPrice>> fetch_vm_prices(HttpClient& http, const PriceClientOptions& options,
                                             const PriceQuery& q);

}  // namespace trainyard::azure
