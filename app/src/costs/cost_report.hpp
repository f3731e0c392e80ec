// Internal: what an account's compute costs, for `trainyard cost`: each pool's burn rate now and
// each job's cost so far with a projection to completion, from the account's cache in the store
// (what `sync` and the poller wrote) and prices looked up as `trainyard prices` does.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/settings.hpp"
#include "azure/accounts.hpp"
#include "azure/http.hpp"
#include "core/cost.hpp"
#include "price_lookup.hpp"
#include "store/store.hpp"

namespace trainyard {

/// The prices one pool's figures use.
struct PricesUsed {
  std::string vm_size;
  std::string region;
  NodeRates rates;       ///< per hour, the discount applied; none where there is no price
  std::string currency;  ///< empty when no price was found
  Timestamp as_of{};     ///< when they were fetched from the API
  bool known() const { return !currency.empty(); }
  /// Why there are none (the API's error, no row for the size), when !known().
  std::string missing;
  /// The API could not be reached and older cached prices are used: why.
  std::string offline;
};

/// A pool's burn rate now.
struct PoolCost {
  std::string id;
  PoolNodes nodes;
  PricesUsed prices;
  std::optional<double> hourly;  ///< none: a billed kind of node has no price
  int64_t idle_dedicated = 0;    ///< dedicated nodes idle: billed, running nothing
};

/// A job's cost so far and projected to its last task.
struct JobCost {
  std::string id;
  std::string pool_id;
  std::optional<double> so_far;      ///< none: unknown (see `why`)
  std::optional<double> projected;   ///< none: unknown or nothing finished yet (see `why`)
  int64_t finished = 0;              ///< completed tasks
  int64_t total = 0;                 ///< all tasks
  std::string why;                   ///< why a figure is missing
  std::optional<PricesUsed> prices;  ///< its pool's; none when the pool is not in the cache
};

/// Every pool of the account (`pools`) and its jobs, or only `job` and its pool.
struct CostReport {
  std::vector<PoolCost> pools;
  std::vector<JobCost> jobs;
};

/// The prices `r`'s pools used: the first currency seen and the oldest fetch (empty and none
/// when no pool had a price).
std::pair<std::string, std::optional<Timestamp>> prices_summary(const CostReport& r);

/// No prices for `vm_size` in `region`, and why.
PricesUsed missing_prices(const std::string& vm_size, const std::string& region, std::string why);

/// The prices of `answer` for one pool: the first region's rates, the discount applied;
/// `missing` says so when the answer has no row.
PricesUsed prices_used(const PriceAnswer& answer, const std::string& vm_size,
                       const std::string& region, double discount);

/// The prices of a VM size (in the region the caller chose).
using PriceSource = std::function<PricesUsed(const std::string& vm_size)>;

/// What `account`'s pools and jobs (only `job` when not empty) cost at `now`, at the prices
/// `prices` gives; an error when the cache cannot be read or `job` is not in it.
Result<CostReport> cost_report_with(Store& store, const std::string& account,
                                    const std::string& job, const PriceSource& prices,
                                    Timestamp now);

/// What `account`'s pools and jobs (only `job` when not empty) cost, at `now`, the discount of
/// `settings.prices` applied. An error when the account has no region or the cache cannot be read.
Result<CostReport> cost_report(Store& store, azure::HttpClient& http, const Settings& settings,
                               const azure::AccountConfig& account, const std::string& job,
                               Timestamp now);

/// The runs a task was billed for, as far as the cache saw them: its current attempt (to now while
/// it runs) and each earlier stretch its state history shows it running, a stretch ended by a
/// requeue having run on a Spot node (only those are preempted); `on_spot_now`: the current
/// attempt's node is a Spot one. A multi-instance task's run holds a whole node per instance.
std::vector<TaskRun> task_runs(const Task& task, const std::vector<StateChange>& history,
                               bool on_spot_now);

}  // namespace trainyard
