#include "price_lookup.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

namespace trainyard {
namespace {

PriceAnswer from_cache(CachedPrices cached) {
  PriceAnswer a;
  a.prices = std::move(cached.prices);
  a.fetched_at = cached.fetched_at.value_or(Timestamp{});
  a.from_cache = true;
  return a;
}

PriceAnswer fetched(Store& store, const azure::PriceQuery& q, std::vector<VmPrice> prices,
                    Timestamp now) {
  PriceAnswer a;
  a.fetched_at = now;
  if (auto stored = store_prices(store, q.vm_size, q.region, prices, now); !stored)
    a.note = "prices not cached: " + stored.error().message;
  for (auto& p : prices) a.prices.push_back({std::move(p), now});
  return a;
}

// The spot order: a price before none, the lower price first, then the region's name.
bool cheaper_spot(const RegionPrices& a, const RegionPrices& b) {
  if (a.spot.has_value() != b.spot.has_value()) return a.spot.has_value();
  if (a.spot && *a.spot != *b.spot) return *a.spot < *b.spot;
  return a.region < b.region;
}

}  // namespace

Result<PriceAnswer> look_up_prices(Store& store, azure::HttpClient& http,
                                   const azure::PriceSettings& settings, const azure::PriceQuery& q,
                                   bool refresh, Timestamp now) {
  TY_TRY(azure::check_price_query(q));
  auto cached = cached_prices(store, q.vm_size, q.region);
  if (!cached) return cached.error();
  bool fresh = cached->fetched_at && now - *cached->fetched_at < kPriceFreshness &&
               now >= *cached->fetched_at;
  if (fresh && !refresh) return from_cache(std::move(*cached));
  azure::PriceClientOptions options;
  options.endpoint = settings.endpoint;
  auto prices = azure::fetch_vm_prices(http, options, q);
  if (prices) return fetched(store, q, std::move(*prices), now);
  if (!cached->fetched_at) return prices.error();
  auto a = from_cache(std::move(*cached));
  a.offline = prices.error().message;
  return a;
}

double discounted(double hourly, double discount) {
  return std::round(hourly * discount * 1e8) / 1e8;
}

std::vector<RegionPrices> prices_by_region(const std::vector<CachedPrice>& prices,
                                           double discount) {
  std::map<std::string, RegionPrices> regions;
  for (const auto& c : prices) {
    auto& r = regions[c.price.region];
    r.region = c.price.region;
    r.vm_size = c.price.vm_size;
    r.currency = c.price.currency;
    r.fetched_at = std::max(r.fetched_at, c.fetched_at);
    double value = discounted(c.price.hourly, discount);
    if (c.price.kind == PriceKind::Dedicated) r.dedicated = value;
    if (c.price.kind == PriceKind::Spot) r.spot = value;
    if (c.price.kind == PriceKind::LowPriority) r.low_priority = value;
  }
  std::vector<RegionPrices> out;
  for (auto& entry : regions) out.push_back(std::move(entry.second));
  std::sort(out.begin(), out.end(), cheaper_spot);
  return out;
}

}  // namespace trainyard
