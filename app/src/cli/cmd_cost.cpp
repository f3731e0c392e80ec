// `trainyard cost --account A [--job J] [--json]`: each pool's burn rate now and each job's cost
// so far with a projection to completion, from the account's cache and the VM prices.
#include <algorithm>

#include <fmt/format.h>

#include "account_costs.hpp"
#include "account_lookup.hpp"
#include "action_util.hpp"
#include "app/cli.hpp"
#include "app/context.hpp"
#include "commands.hpp"
#include "cost_report.hpp"
#include "output.hpp"
#include "sync/batch_sync.hpp"
#include "sync/incremental_sync.hpp"
#include "text_table.hpp"

namespace trainyard {
namespace {

struct CostOptions {
  std::string account, job;
  bool json = false, offline = false;
};

// How old the cached node lists are: the oldest pool's last clean node listing.
std::string nodes_age(Store& store, const std::string& account, Timestamp now) {
  auto pools = store.pools(account);
  if (!pools || pools->empty()) return "no pools in the cache";
  std::optional<Timestamp> oldest;
  for (const auto& p : *pools) {
    auto m = store.sync_mark(account, nodes_scope(p.id));
    if (!m || !*m || !(*m)->checked_at) return "nodes never listed";
    if (!oldest || *(*m)->checked_at < *oldest) oldest = (*m)->checked_at;
  }
  auto secs = std::chrono::duration_cast<std::chrono::seconds>(now - *oldest).count();
  return fmt::format("nodes as of {}s ago", std::max<int64_t>(0, secs));
}

// The burn rate counts the nodes as the service has them now (a preempted Spot node costs
// nothing): pools, nodes, jobs and tasks are refreshed first. When that fails, the cache
// answers and its age is said.
Result<void> refresh_for_cost(AppContext& ctx, const azure::AccountConfig& account,
                              const CostOptions& o) {
  if (!o.offline) {
    auto client = open_batch_client(account, ctx.clock);
    SyncScope scope{account.name, account.emulator ? AccountKind::Emulator : AccountKind::Batch,
                    account.endpoint, o.job};
    auto synced =
        client ? full_sync(*ctx.store, **client, scope) : Result<SyncStats>(client.error());
    if (synced) return {};
    if (synced.error().kind == ErrorKind::Auth) return synced.error();
    out::eprint("trainyard: {}: the refresh failed ({}): {}", account.name, synced.error().message,
                nodes_age(*ctx.store, account.name, ctx.clock.now()));
    return {};
  }
  out::eprint("trainyard: {}: offline: {}", account.name,
              nodes_age(*ctx.store, account.name, ctx.clock.now()));
  return {};
}

nlohmann::json money_or_null(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json();
}

nlohmann::json to_json(const CostReport& r) {
  auto [currency, as_of] = prices_summary(r);
  auto pools = nlohmann::json::array(), jobs = nlohmann::json::array();
  for (const auto& p : r.pools)
    pools.push_back({{"id", p.id},
                     {"vmSize", p.prices.vm_size},
                     {"region", p.prices.region},
                     {"dedicated", money_or_null(p.prices.rates.dedicated)},
                     {"spot", money_or_null(p.prices.rates.spot)},
                     {"hourly", money_or_null(p.hourly)}});
  for (const auto& j : r.jobs)
    jobs.push_back({{"id", j.id},
                    {"costSoFar", money_or_null(j.so_far)},
                    {"projected", money_or_null(j.projected)}});
  return {{"currency", currency.empty() ? nlohmann::json() : nlohmann::json(currency)},
          {"pricesAsOf", as_of ? nlohmann::json(format_iso8601(*as_of)) : nlohmann::json()},
          {"pools", pools},
          {"jobs", jobs}};
}

std::string money(const std::optional<double>& v) {
  return v ? fmt::format("{:.4f}", *v) : "unknown";
}

// `westeurope USD 2026-11-27 05:59 UTC`, or why there are no prices.
std::string prices_cell(const std::optional<PricesUsed>& p) {
  if (!p) return "-";
  if (!p->known()) return "none";
  std::string iso = format_iso8601(p->as_of);
  return fmt::format("{} {} {} {} UTC", p->region, p->currency, iso.substr(0, 10),
                     iso.substr(11, 5));
}

// `2 x 0.0960`: billed nodes of one kind and the price of each.
std::string nodes_cell(int count, const std::optional<double>& price) {
  return fmt::format("{} x {}", count, price ? fmt::format("{:.4f}", *price) : "?");
}

void print_pools(const CostReport& r) {
  TextTable table({"POOL", "VM SIZE", "DEDICATED", "SPOT", "PREEMPTED", "PER HOUR", "PRICES"});
  for (const auto& p : r.pools)
    table.add({p.id, p.prices.vm_size, nodes_cell(p.nodes.dedicated, p.prices.rates.dedicated),
               nodes_cell(p.nodes.spot - p.nodes.preempted, p.prices.rates.spot),
               std::to_string(p.nodes.preempted), money(p.hourly), prices_cell(p.prices)});
  table.print(stdout);
}

void print_jobs(const CostReport& r) {
  TextTable table({"JOB", "POOL", "FINISHED", "COST SO FAR", "PROJECTED", "PRICES"});
  for (const auto& j : r.jobs)
    table.add({j.id, j.pool_id.empty() ? "-" : j.pool_id, fmt::format("{}/{}", j.finished, j.total),
               money(j.so_far), j.so_far && !j.projected ? "-" : money(j.projected),
               prices_cell(j.prices)});
  table.print(stdout);
}

// One line per figure that could not be worked out, and per pool priced from an old cache.
void print_notes(const CostReport& r, double discount) {
  for (const auto& p : r.pools) {
    if (!p.prices.known()) out::print("pool {}: no prices: {}", p.id, p.prices.missing);
    if (!p.prices.offline.empty())
      out::print("pool {}: cached prices (the API failed: {})", p.id, p.prices.offline);
  }
  for (const auto& j : r.jobs)
    if (!j.why.empty()) out::print("job {}: {}", j.id, j.why);
  std::string line = "Linux pay-as-you-go prices per hour";
  if (discount < 1)
    line +=
        fmt::format(", {:g}% off retail (prices.discount {:g})", (1 - discount) * 100, discount);
  out::print("{}; costs from the cache's task run times (trainyard sync refreshes it)", line);
}

// The account's budgets against the projections: the total only for the whole account.
void print_budgets(const CostReport& r, const std::string& account, const Budget& b,
                   bool whole_account) {
  std::string currency = prices_summary(r).first;
  if (currency.empty()) currency = "?";
  if (b.total && whole_account)
    out::print("budget: {} {}", account,
               against_budget(job_totals(r.jobs).projected, *b.total, currency));
  for (const auto& j : r.jobs) {
    auto it = b.jobs.find(j.id);
    if (it == b.jobs.end()) continue;
    out::print("budget: job {} {}", j.id,
               against_budget(j.projected ? j.projected : j.so_far, it->second, currency));
  }
}

int cost_command(const CliState& st, const CostOptions& o) {
  auto ctx = open_context(st.data_dir);
  if (!ctx) return report(ctx.error());
  auto account = find_account((*ctx)->settings, o.account);
  if (!account) return report(account.error());
  if (auto fresh = refresh_for_cost(**ctx, *account, o); !fresh)
    return report_failure(o.account, fresh.error());
  azure::HttpClient http;
  auto r =
      cost_report(*(*ctx)->store, http, (*ctx)->settings, *account, o.job, (*ctx)->clock.now());
  if (!r) return report(r.error());
  if (o.json) {
    out::json(to_json(*r));
    return kExitOk;
  }
  print_pools(*r);
  out::print("");
  print_jobs(*r);
  print_notes(*r, (*ctx)->settings.prices.discount);
  const auto& budgets = (*ctx)->settings.budgets;
  if (auto b = budgets.find(o.account); b != budgets.end())
    print_budgets(*r, o.account, b->second, o.job.empty());
  return kExitOk;
}

}  // namespace

void register_cost(CLI::App& app, CliState& st) {
  auto o = std::make_shared<CostOptions>();
  auto* cmd = app.add_subcommand(
      "cost",
      "A Batch account's burn rate per pool now and each job's cost so far and projected, from "
      "the cache and the VM prices");
  cmd->add_option("--account", o->account, "Batch account")->required();
  cmd->add_option("--job", o->job, "Only this job (and its pool)");
  cmd->add_flag("--offline", o->offline,
                "From the cache as it is (its age is said), reading nothing");
  cmd->add_flag("--json", o->json,
                "{currency, pricesAsOf, pools: [{id, vmSize, region, dedicated, spot, hourly}], "
                "jobs: [{id, costSoFar, projected}]}");
  cmd->callback([&st, o] { st.action = [&st, o] { return cost_command(st, *o); }; });
}

}  // namespace trainyard
