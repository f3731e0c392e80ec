#include "pool_burn.hpp"

#include <fmt/format.h>

#include "account_lookup.hpp"
#include "price_lookup.hpp"

namespace trainyard {
namespace {

int64_t count_in(const NodeTally& t, NodeState s) {
  auto it = t.by_state.find(s);
  return it == t.by_state.end() ? 0 : it->second;
}

}  // namespace

PricesUsed cached_prices_used(Store& store, const Settings& settings, const std::string& vm_size,
                              const std::string& region) {
  auto cached = cached_prices(store, vm_size, region);
  if (!cached) return missing_prices(vm_size, region, cached.error().message);
  if (!cached->fetched_at)
    return missing_prices(vm_size, region,
                          fmt::format("no prices cached for {} in {} ('trainyard prices "
                                      "--vm-size {} --region {}' fetches them)",
                                      vm_size, region, vm_size, region));
  PriceAnswer answer;
  answer.prices = std::move(cached->prices);
  answer.fetched_at = *cached->fetched_at;
  answer.from_cache = true;
  return prices_used(answer, vm_size, region, settings.prices.discount);
}

Result<std::string> region_of_account(const Settings& settings, Store& store,
                                      const std::string& account) {
  if (auto config = find_account(settings, account)) return azure::account_region(*config);
  auto accounts = store.accounts();
  if (!accounts) return accounts.error();
  for (const auto& a : *accounts)
    if (a.name == account) return azure::account_region({.name = a.name, .endpoint = a.endpoint});
  return make_error(ErrorKind::NotFound, fmt::format("account '{}' is not known", account));
}

PoolBurn pool_burn(Store& store, const Settings& settings, const Pool& pool, const PoolTally& tally,
                   const std::string& region) {
  PoolBurn b;
  b.prices = cached_prices_used(store, settings, pool.vm_size, region);
  b.nodes = {pool.current_dedicated_nodes, pool.current_low_priority_nodes,
             static_cast<int>(count_in(tally.spot, NodeState::Preempted) +
                              count_in(tally.dedicated, NodeState::Preempted))};
  b.idle_dedicated = count_in(tally.dedicated, NodeState::Idle);
  if (!b.prices.known()) return b;
  b.hourly = pool_burn_rate(b.nodes, b.prices.rates);
  if (b.prices.rates.dedicated)
    b.idle_hourly = static_cast<double>(b.idle_dedicated) * *b.prices.rates.dedicated;
  return b;
}

}  // namespace trainyard
