// libFuzzer: Retail Prices API pages through parse_price_page and newest_prices. A refusal is one
// line naming the source; what is accepted is an hourly price of 0 or more with a region and a
// size, its text inert on a terminal, and newest_prices keeps one row per region and kind.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string_view>
#include <utility>

#include "azure/prices.hpp"
#include "core/sanitizer.hpp"

using namespace trainyard;
using namespace trainyard::azure;

namespace {

bool acceptable(const VmPrice& p) {
  return std::isfinite(p.hourly) && p.hourly >= 0 && !p.region.empty() && !p.vm_size.empty() &&
         is_inert_text(p.region) && is_inert_text(p.vm_size) && is_inert_text(p.currency);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view body(reinterpret_cast<const char*>(data), size);
  auto page = parse_price_page(body, "fuzz");
  if (!page) {
    const auto& m = page.error().message;
    if (m.rfind("fuzz", 0) != 0 || m.find('\n') != std::string::npos) std::abort();
    return 0;
  }
  for (const auto& p : page->prices)
    if (!acceptable(p)) std::abort();
  std::set<std::pair<std::string, PriceKind>> seen;
  for (const auto& p : newest_prices(page->prices))
    if (!seen.insert({p.region, p.kind}).second) std::abort();
  return 0;
}
