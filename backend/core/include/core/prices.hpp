// Hourly VM prices as the Azure Retail Prices API lists them, shared by the client that reads
// them, the store that caches them and the commands that show them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/time.hpp"

namespace trainyard {

/// How a VM is billed: full price, Spot, or the older Batch low-priority rate.
enum class PriceKind { Dedicated, Spot, LowPriority };

/// `dedicated`, `spot`, `lowPriority`: the names the store and `--json` use.
constexpr std::string_view price_kind_name(PriceKind k) {
  switch (k) {
    case PriceKind::Spot:
      return "spot";
    case PriceKind::LowPriority:
      return "lowPriority";
    case PriceKind::Dedicated:
      break;
  }
  return "dedicated";
}

/// The kind price_kind_name names, or nullopt.
inline std::optional<PriceKind> parse_price_kind(std::string_view name) {
  for (auto k : {PriceKind::Dedicated, PriceKind::Spot, PriceKind::LowPriority})
    if (price_kind_name(k) == name) return k;
  return std::nullopt;
}

/// One hourly price of one VM size in one region (Linux, pay as you go).
struct VmPrice {
  std::string vm_size;  ///< `Standard_NC4as_T4_v3` (the API's armSkuName)
  std::string region;   ///< `eastus` (armRegionName)
  PriceKind kind = PriceKind::Dedicated;
  double hourly = 0;           ///< per hour, in `currency`, before any discount
  std::string currency;        ///< `USD`
  Timestamp effective_from{};  ///< the row's effectiveStartDate (the newest row wins)
  bool operator==(const VmPrice&) const = default;
};

}  // namespace trainyard
