#include "account_costs.hpp"

#include <tuple>

#include <fmt/format.h>

#include "pool_burn.hpp"

namespace trainyard {
namespace {

// Adds `v` to `sum`: the sum is unknown once a part is.
void add(std::optional<double>& sum, const std::optional<double>& v) {
  sum = sum && v ? std::optional(*sum + *v) : std::nullopt;
}

// The pools' burn and idle dedicated nodes, and the jobs' costs, from one report of the cache.
Result<void> read_report(Store& store, const Settings& settings, AccountCosts& c, Timestamp now) {
  auto prices = [&](const std::string& vm_size) {
    return cached_prices_used(store, settings, vm_size, c.region);
  };
  auto report = cost_report_with(store, c.account, "", prices, now);
  if (!report) return report.error();
  std::tie(c.currency, c.prices_as_of) = prices_summary(*report);
  c.hourly = 0.0;
  for (const auto& p : report->pools) {
    bool billed = p.nodes.dedicated > 0 || p.nodes.spot > 0;
    if (billed) add(c.hourly, p.hourly);
    if (p.idle_dedicated == 0) continue;
    std::optional<double> idle_hourly;
    if (p.prices.rates.dedicated)
      idle_hourly = static_cast<double>(p.idle_dedicated) * *p.prices.rates.dedicated;
    c.idle.push_back({p.id, p.idle_dedicated, idle_hourly});
  }
  auto totals = job_totals(report->jobs);
  c.so_far = totals.so_far;
  c.projected = totals.projected;
  c.unprojected = totals.unprojected;
  for (auto& j : report->jobs) c.jobs[j.id] = std::move(j);
  return {};
}

// Without a region there are no prices, but idle dedicated nodes still bill: the quit guard and
// the status line count them, priced at nothing known.
Result<void> read_idle_unpriced(Store& store, AccountCosts& c, Timestamp now) {
  auto no_prices = [](const std::string&) { return PricesUsed{}; };
  auto report = cost_report_with(store, c.account, "", no_prices, now);
  if (!report) return report.error();
  for (const auto& p : report->pools)
    if (p.idle_dedicated > 0) c.idle.push_back({p.id, p.idle_dedicated, std::nullopt});
  return {};
}

// Jobs with tasks, all of them completed, and the job still active: it counts against the
// account's job quota until terminated.
Result<void> read_finished_active(Store& store, AccountCosts& c) {
  auto jobs = store.jobs(c.account);
  if (!jobs) return jobs.error();
  auto counts = store.job_task_counts(c.account);
  if (!counts) return counts.error();
  for (const auto& j : *jobs) {
    auto it = counts->find(j.id);
    if (j.state != JobState::Active || it == counts->end()) continue;
    int64_t total = 0;
    for (const auto& [state, n] : it->second.by_state) total += n;
    auto done = it->second.by_state.find(TaskState::Completed);
    if (total > 0 && done != it->second.by_state.end() && done->second == total)
      c.finished_active.push_back(j.id);
  }
  return {};
}

std::string over_text(const std::string& what, double projected, double budget,
                      const std::string& currency) {
  return fmt::format("budget: {} {}", what, against_budget(projected, budget, currency));
}

// One budget: an alert when the projection is over it and was not at the last look.
void check_budget(const std::string& key, std::optional<double> projected, double budget,
                  Alert alert, std::set<std::string>& crossed, std::vector<Alert>& out) {
  if (!projected || *projected <= budget) {
    crossed.erase(key);
    return;
  }
  if (!crossed.insert(key).second) return;
  out.push_back(std::move(alert));
}

}  // namespace

JobTotals job_totals(const std::vector<JobCost>& jobs) {
  JobTotals t{0.0, 0.0, 0};
  for (const auto& j : jobs) {
    add(t.so_far, j.so_far);
    if (!j.projected && j.so_far) ++t.unprojected;
    add(t.projected, j.projected ? j.projected : j.so_far);
  }
  return t;
}

int64_t AccountCosts::idle_nodes() const {
  int64_t n = 0;
  for (const auto& p : idle) n += p.nodes;
  return n;
}

double AccountCosts::idle_hourly() const {
  double sum = 0;
  for (const auto& p : idle) sum += p.hourly.value_or(0);
  return sum;
}

Result<AccountCosts> account_costs(Store& store, const Settings& settings,
                                   const std::string& account, Timestamp now) {
  AccountCosts c;
  c.account = account;
  c.at = now;
  if (auto b = settings.budgets.find(account); b != settings.budgets.end()) c.budget = b->second;
  auto region = region_of_account(settings, store, account);
  if (!region) {
    c.why = region.error().message;
    TY_TRY(read_idle_unpriced(store, c, now));
    TY_TRY(read_finished_active(store, c));
    return c;
  }
  c.region = *region;
  TY_TRY(read_report(store, settings, c, now));
  TY_TRY(read_finished_active(store, c));
  return c;
}

std::vector<Alert> budget_alerts(const AccountCosts& costs, const Budget& budget,
                                 std::set<std::string>& crossed) {
  std::vector<Alert> out;
  if (budget.total) {
    Alert a{AlertKind::BudgetCrossed,
            costs.account,
            "",
            "",
            "",
            over_text(costs.account, costs.projected.value_or(0), *budget.total, costs.currency)};
    check_budget(costs.account, costs.projected, *budget.total, a, crossed, out);
  }
  for (const auto& [job, amount] : budget.jobs) {
    auto it = costs.jobs.find(job);
    std::optional<double> projected;
    if (it != costs.jobs.end())
      projected = it->second.projected ? it->second.projected : it->second.so_far;
    Alert a{AlertKind::BudgetCrossed,
            costs.account,
            job,
            "",
            "",
            over_text("job " + job, projected.value_or(0), amount, costs.currency)};
    check_budget("job/" + job, projected, amount, a, crossed, out);
  }
  return out;
}

std::string money_text(double amount, const std::string& currency) {
  return fmt::format("{:.4f} {}", amount, currency);
}

std::string against_budget(const std::optional<double>& projected, double budget,
                           const std::string& currency) {
  if (!projected)
    return fmt::format("projected unknown, against its {:.4f} {} budget", budget, currency);
  return fmt::format("projected {:.4f} {}, {} {:.4f} {} budget ({:.0f}%)", *projected, currency,
                     *projected > budget ? "over its" : "of its", budget, currency,
                     *projected / budget * 100);
}

}  // namespace trainyard
