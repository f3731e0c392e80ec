// `trainyard prices --vm-size S [--region R] [--json] [--refresh]`: hourly Linux prices of a VM
// size per region, dedicated, Spot and low-priority, from the Retail Prices API or its cache.
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/cli.hpp"
#include "app/context.hpp"
#include "commands.hpp"
#include "output.hpp"
#include "price_lookup.hpp"
#include "text_table.hpp"

namespace trainyard {
namespace {

struct PricesOptions {
  azure::PriceQuery query;
  bool json = false, refresh = false;
};

// `2026-11-27 05:59 UTC`.
std::string minute_utc(Timestamp t) {
  std::string iso = format_iso8601(t);
  return iso.substr(0, 10) + " " + iso.substr(11, 5) + " UTC";
}

nlohmann::json price_or_null(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json();
}

nlohmann::json to_json(const std::vector<RegionPrices>& rows) {
  auto out = nlohmann::json::array();
  for (const auto& r : rows)
    out.push_back({{"region", r.region},
                   {"vmSize", r.vm_size},
                   {"dedicated", price_or_null(r.dedicated)},
                   {"spot", price_or_null(r.spot)},
                   {"lowPriority", price_or_null(r.low_priority)},
                   {"currency", r.currency},
                   {"asOf", format_iso8601(r.fetched_at)}});
  return out;
}

std::string cell(const std::optional<double>& v) {
  return v ? fmt::format("{:.4f}", *v) : "-";
}

// `Standard_NC4as_T4_v3, Linux: USD per hour, 20% off (prices.discount 0.8), as of …`.
std::string footer(const std::vector<RegionPrices>& rows, const PriceAnswer& a, double discount) {
  std::set<std::string> currencies;
  for (const auto& r : rows) currencies.insert(r.currency);
  std::string money;
  for (const auto& c : currencies) money += (money.empty() ? "" : "/") + c;
  std::string line = fmt::format("{}, Linux: {} per hour", rows.front().vm_size, money);
  if (discount < 1)
    line +=
        fmt::format(", {:g}% off retail (prices.discount {:g})", (1 - discount) * 100, discount);
  line += ", as of " + minute_utc(a.fetched_at);
  if (a.from_cache && a.offline.empty()) line += " (cached)";
  return line;
}

void print_table(const std::vector<RegionPrices>& rows, const PriceAnswer& a, double discount) {
  TextTable table({"REGION", "DEDICATED", "SPOT", "LOW PRIORITY"});
  for (const auto& r : rows)
    table.add({r.region, cell(r.dedicated), cell(r.spot), cell(r.low_priority)});
  table.print(stdout);
  out::print("{}", footer(rows, a, discount));
}

Error no_prices(const azure::PriceQuery& q) {
  std::string where = q.region.empty() ? "any region" : "region " + q.region;
  return make_error(ErrorKind::NotFound,
                    fmt::format("no Linux prices for {} in {} (is the size spelled as in "
                                "'az vm list-sizes', e.g. Standard_NC4as_T4_v3?)",
                                q.vm_size, where));
}

int prices_command(const CliState& st, const PricesOptions& o) {
  if (auto ok = azure::check_price_query(o.query); !ok) return report(ok.error());
  auto ctx = open_context(st.data_dir);
  if (!ctx) return report(ctx.error());
  const auto& settings = (*ctx)->settings.prices;
  azure::HttpClient http;
  auto answer =
      look_up_prices(*(*ctx)->store, http, settings, o.query, o.refresh, (*ctx)->clock.now());
  if (!answer) return report(answer.error());
  if (!answer->offline.empty())
    out::eprint("trainyard: {}; showing the prices cached {}", answer->offline,
                minute_utc(answer->fetched_at));
  if (!answer->note.empty()) out::eprint("trainyard: {}", answer->note);
  auto rows = prices_by_region(answer->prices, settings.discount);
  if (o.json) {
    out::json(to_json(rows));
    return kExitOk;
  }
  if (rows.empty()) return report(no_prices(o.query));
  print_table(rows, *answer, settings.discount);
  return kExitOk;
}

}  // namespace

void register_prices(CLI::App& app, CliState& st) {
  auto o = std::make_shared<PricesOptions>();
  auto* cmd = app.add_subcommand(
      "prices",
      "Hourly Linux prices of a VM size per region: dedicated, Spot and low-priority (Azure "
      "Retail Prices API, cached a day)");
  cmd->add_option("--vm-size", o->query.vm_size, "VM size, e.g. Standard_NC4as_T4_v3")->required();
  cmd->add_option("--region", o->query.region,
                  "Only this region (e.g. eastus); default: every region, cheapest Spot first");
  cmd->add_flag("--json", o->json,
                "An array of {region, vmSize, dedicated, spot, lowPriority, currency, asOf}");
  cmd->add_flag("--refresh", o->refresh, "Ask the API even when the cached prices are fresh");
  cmd->callback([&st, o] { st.action = [&st, o] { return prices_command(st, *o); }; });
}

}  // namespace trainyard
