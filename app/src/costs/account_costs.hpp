// Internal: what one Batch account costs now and will, for the TUI: each job's cost so far and
// projected, the pools' burn rate, the waste (idle dedicated nodes billing, finished jobs still
// active) and the budgets a projection crossed. From the store's cache only: prices come from
// what `trainyard prices` cached (the TUI never waits on the price API).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "alert_watch.hpp"
#include "app/settings.hpp"
#include "cost_report.hpp"
#include "store/store.hpp"

namespace trainyard {

/// A pool whose dedicated nodes are idle: billed, running nothing.
struct IdlePool {
  std::string id;
  int64_t nodes = 0;
  std::optional<double> hourly;  ///< what they bill; none without a price
};

/// One account's costs at `at`.
struct AccountCosts {
  std::string account;
  Timestamp at{};
  std::string why;       ///< why there are no figures (no region, no cache)
  std::string currency;  ///< the prices'; empty when no pool had one
  std::string region;
  std::optional<Timestamp> prices_as_of;  ///< the oldest prices used
  std::map<std::string, JobCost> jobs;    ///< by id
  std::optional<double> so_far;           ///< the jobs together; none when one is unknown
  /// The jobs together to completion: each job's projection, or its cost so far while none of
  /// its tasks has finished (`unprojected` counts those); none when a job's cost is unknown.
  std::optional<double> projected;
  int64_t unprojected = 0;
  std::optional<double> hourly;  ///< every pool's burn now; none when a pool has no price
  std::vector<IdlePool> idle;    ///< pools with idle dedicated nodes
  std::vector<std::string> finished_active;  ///< jobs whose every task completed, still active
  std::optional<Budget> budget;              ///< the account's, from config.json

  /// Idle dedicated nodes in all, and what they bill per hour together (of those priced).
  int64_t idle_nodes() const;
  double idle_hourly() const;
};

/// Jobs' costs together.
struct JobTotals {
  std::optional<double> so_far;     ///< none when a job's is unknown
  std::optional<double> projected;  ///< each job's projection, else its cost so far
  int64_t unprojected = 0;          ///< jobs counted at their cost so far
};

/// The totals of `jobs` (see AccountCosts::projected).
JobTotals job_totals(const std::vector<JobCost>& jobs);

/// `account`'s costs at `now` (see AccountCosts); an error only when the cache cannot be read.
Result<AccountCosts> account_costs(Store& store, const Settings& settings,
                                   const std::string& account, Timestamp now);

/// The budgets of `budget` that `costs` crossed since the last call (`crossed` keeps which are
/// over: `account` for the total, `job/ID` for a job); one alert per crossing, none again
/// until the projection falls back under.
std::vector<Alert> budget_alerts(const AccountCosts& costs, const Budget& budget,
                                 std::set<std::string>& crossed);

/// `12.3456 USD`: to the hundredth of a cent, as `trainyard cost` prints amounts, so that a small
/// job's projection and its budget never read the same while one is over the other.
std::string money_text(double amount, const std::string& currency);

/// `projected 1.5155 USD, over its 1.2000 USD budget (126%)`: a budget against its projection,
/// to the hundredth of a cent, in the CLI (`trainyard cost`) and the TUI alike.
std::string against_budget(const std::optional<double>& projected, double budget,
                           const std::string& currency);

}  // namespace trainyard
