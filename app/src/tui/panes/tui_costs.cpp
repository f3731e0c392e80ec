#include "tui_costs.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/sanitizer.hpp"
#include "tui_services.hpp"

namespace trainyard {
namespace {

std::string money(const std::optional<double>& v, const std::string& currency) {
  return v ? money_text(*v, currency) : "unknown";
}

// `eastus prices of 2026-11-20`.
std::string prices_text(const AccountCosts& c) {
  std::string date = c.prices_as_of ? format_iso8601(*c.prices_as_of).substr(0, 10) : "?";
  return fmt::format("{} prices of {}", sanitize_text(c.region), date);
}

// Why a figure is unknown: the first job's or, with no job, that no pool has a price.
std::string unknown_text(const AccountCosts& c) {
  for (const auto& [id, j] : c.jobs) {
    if (j.so_far || j.why.empty()) continue;
    std::string_view why = j.why;
    if (why.starts_with("unknown: ")) why.remove_prefix(9);
    return fmt::format("(job {}) {}", id, why);
  }
  return ": no prices cached ('trainyard prices --vm-size SIZE --region " + c.region +
         "' fetches them)";
}

CostLine totals_line(const AccountCosts& c) {
  if (!c.why.empty()) return {sanitize_text("cost   unknown: " + c.why), Role::Dim};
  if (c.currency.empty() || !c.so_far)
    return {sanitize_text("cost   unknown " + unknown_text(c)), Role::Dim};
  const auto& cur = c.currency;
  auto text =
      fmt::format("cost   so far {} · projected {}", money(c.so_far, cur), money(c.projected, cur));
  bool over = false;
  if (c.budget && c.budget->total) {
    over = c.projected && *c.projected > *c.budget->total;
    text +=
        fmt::format(" · budget {}{}", money_text(*c.budget->total, cur), over ? " EXCEEDED" : "");
  }
  text += fmt::format(" · burn {}/h · {}", money(c.hourly, cur), prices_text(c));
  // Last, so that a narrow pane cuts the note rather than a figure.
  if (c.unprojected)
    text += fmt::format(" ({} job(s) with no task finished: at their cost so far)", c.unprojected);
  return {sanitize_text(text), over ? Role::StateFailure : Role::Title};
}

std::string idle_text(const AccountCosts& c) {
  std::vector<std::string> pools;
  for (const auto& p : c.idle) pools.push_back(p.id);
  bool priced = std::all_of(c.idle.begin(), c.idle.end(),
                            [](const IdlePool& p) { return p.hourly.has_value(); });
  if (!priced)
    return fmt::format("{} idle dedicated node(s), billing at a price not known ({})",
                       c.idle_nodes(), fmt::join(pools, ", "));
  return fmt::format("{} idle dedicated node(s) billing {}/h ({})", c.idle_nodes(),
                     money_text(c.idle_hourly(), c.currency.empty() ? "?" : c.currency),
                     fmt::join(pools, ", "));
}

std::string finished_text(const AccountCosts& c) {
  return fmt::format(
      "{} job(s) done but still active, held against the job quota (t "
      "terminates): {}",
      c.finished_active.size(), fmt::join(c.finished_active, ", "));
}

}  // namespace

void watch_costs(AppContext& ctx, TuiState& st) {
  if (!st.work.costs) return;
  std::set<std::string> accounts;
  if (st.top().account != kLocalAccount) accounts.insert(st.top().account);
  for (const auto& [account, poller] : st.work.pollers) accounts.insert(account);
  for (const auto& [account, budget] : ctx.settings.budgets) accounts.insert(account);
  accounts.erase(kLocalAccount);
  st.work.costs->watch(std::move(accounts));
}

bool take_costs(TuiState& st) {
  if (!st.work.costs) return false;
  announce_alerts(st, st.work.costs->take_alerts());
  auto snap = st.work.costs->snapshot();
  if (!snap || (st.work.cost_view && st.work.cost_view->serial == snap->serial)) return false;
  st.work.cost_view = std::move(snap);
  return true;
}

const AccountCosts* shown_costs(const TuiState& st, const std::string& account) {
  if (!st.work.cost_view) return nullptr;
  auto it = st.work.cost_view->accounts.find(account);
  return it == st.work.cost_view->accounts.end() ? nullptr : &it->second;
}

std::vector<CostLine> cost_lines(const AccountCosts& c) {
  std::vector<CostLine> out{totals_line(c)};
  std::vector<std::string> waste;
  if (!c.idle.empty()) waste.push_back(idle_text(c));
  if (!c.finished_active.empty()) waste.push_back(finished_text(c));
  if (!waste.empty())
    out.push_back(
        {sanitize_text(fmt::format("waste  {}", fmt::join(waste, " · "))), Role::StateFailure});
  return out;
}

std::optional<std::string> idle_billing_warning(const TuiState& st) {
  if (!st.work.cost_view) return std::nullopt;
  std::vector<std::string> parts;
  for (const auto& [account, c] : st.work.cost_view->accounts)
    if (c.idle_nodes() > 0) parts.push_back(account + ": " + idle_text(c));
  if (parts.empty()) return std::nullopt;
  return sanitize_text(fmt::format("{}", fmt::join(parts, "; ")));
}

}  // namespace trainyard
