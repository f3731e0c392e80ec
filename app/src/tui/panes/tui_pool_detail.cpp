#include "tui_pool_detail.hpp"

#include <fmt/format.h>

#include "account_quotas.hpp"
#include "core/sanitizer.hpp"
#include "pool_burn.hpp"
#include "pool_history_chart.hpp"
#include "pool_insight.hpp"
#include "widgets/charts.hpp"
#include "widgets/heatmap.hpp"

namespace trainyard {
namespace {

constexpr int kLabel = 10;  // the width of the labels on the left

/// What the Pool pane shows, read on the reader's connection.
struct PoolDetailData : PaneData {
  std::optional<Pool> pool;  ///< none: not in the cache
  PoolTally tally;
  std::vector<PoolSample> samples;
  AccountUsage usage;
  QuotaLookup quotas;
  std::optional<PoolBurn> burn;  ///< none: a local pool
  std::string no_region;         ///< why the account has no region (and so no prices)
};

void label(Canvas& c, int x, int y, const std::string& text) {
  c.draw_text(x, y, text, Role::Label, kLabel);
}

std::string size_text(const Pool& p) {
  auto v = vcpus_of(p.vm_size);
  return fmt::format("{} · {} · {} slot(s)/node · {}", sanitize_text(p.vm_size),
                     v ? fmt::format("{} vCPUs/node", *v) : "vCPUs unknown", p.task_slots_per_node,
                     to_wire(p.state));
}

std::string resize_text(const Pool& p) {
  if (p.allocation_state == AllocationState::Steady)
    return fmt::format("steady · dedicated {} · Spot {}", p.current_dedicated_nodes,
                       p.current_low_priority_nodes);
  return fmt::format("{} · dedicated {} → {} · Spot {} → {}", to_wire(p.allocation_state),
                     p.current_dedicated_nodes, p.target_dedicated_nodes,
                     p.current_low_priority_nodes, p.target_low_priority_nodes);
}

std::string money(double v, const std::string& currency) {
  return fmt::format("{:.4f} {}", v, sanitize_text(currency));
}

std::string rate_text(const std::optional<double>& rate) {
  return rate ? fmt::format("{:.4f}", *rate) : "?";
}

// `19.0996 USD/h now · 5 dedicated × 3.6730 + 1 Spot × 0.7346 (1 preempted, not billed)`.
std::string burn_text(const PoolBurn& b) {
  const auto& n = b.nodes;
  std::string text = b.hourly ? money(*b.hourly, b.prices.currency) + "/h now"
                              : "unknown: a billed kind of node has no price";
  text += fmt::format(" · {} dedicated × {} + {} Spot × {}", n.dedicated,
                      rate_text(b.prices.rates.dedicated), std::max(0, n.spot - n.preempted),
                      rate_text(b.prices.rates.spot));
  if (n.preempted > 0) text += fmt::format(" ({} preempted, not billed)", n.preempted);
  return text;
}

std::string prices_text(const PricesUsed& p) {
  std::string text = fmt::format("{} Linux prices of {} UTC, {}", sanitize_text(p.region),
                                 format_iso8601(p.as_of).substr(0, 10), sanitize_text(p.currency));
  return text + " ('trainyard prices --refresh' updates them)";
}

// The burn rate and the prices it used, then idle dedicated nodes as waste; returns the rows.
int render_cost(const PoolDetailData& d, Canvas& c, Rect r) {
  if (!d.burn || r.h < 1) return 0;
  const auto& b = *d.burn;
  label(c, r.x, r.y, "cost");
  int w = r.w - kLabel;
  if (!d.no_region.empty() || !b.prices.known()) {
    auto why = d.no_region.empty() ? b.prices.missing : d.no_region;
    c.draw_text_truncated(r.x + kLabel, r.y, "unknown: " + sanitize_text(why), Role::Dim, w);
    return 1;
  }
  c.draw_text_truncated(r.x + kLabel, r.y, burn_text(b), Role::Default, w);
  int rows = 1;
  if (r.h > rows)
    c.draw_text_truncated(r.x + kLabel, r.y + rows++, prices_text(b.prices), Role::Dim, w);
  if (b.idle_dedicated > 0 && b.idle_hourly && r.h > rows) {
    label(c, r.x, r.y + rows, "waste");
    c.draw_text_truncated(r.x + kLabel, r.y + rows++,
                          fmt::format("{} idle dedicated node(s) billing {}/h", b.idle_dedicated,
                                      money(*b.idle_hourly, b.prices.currency)),
                          Role::StateFailure, w);
  }
  return rows;
}

// One kind's heatmap (at most 2 rows) and its counts under it; returns the rows drawn.
int render_kind(const std::string& name, const NodeTally& t, Canvas& c, Rect r) {
  if (r.h < 2) return 0;
  label(c, r.x, r.y, name);
  Rect map{r.x + kLabel, r.y, r.w - kLabel, std::min(2, r.h - 1)};
  int rows = std::max(1, render_heatmap({t.cells}, c, map));
  c.draw_text_truncated(map.x, r.y + rows, fmt::format("{} node(s): {}", t.total, tally_text(t)),
                        Role::Dim, map.w);
  return rows + 1;
}

std::string used_of(int64_t used, std::optional<int64_t> quota) {
  return quota ? fmt::format("{}/{}", used, *quota) : std::to_string(used);
}

// The account's quotas and usage in two rows.
void render_quotas(const PoolDetailData& d, Canvas& c, Rect r) {
  const auto& u = d.usage;
  const auto& q = d.quotas.quotas;
  auto of = [&](int64_t AccountQuotas::*f) {
    return q ? std::optional<int64_t>((*q).*f) : std::nullopt;
  };
  label(c, r.x, r.y, q ? "quotas" : "usage");
  c.draw_text_truncated(
      r.x + kLabel, r.y,
      fmt::format("dedicated cores {} · Spot cores {} · pools {} · active jobs {}",
                  used_of(u.dedicated_cores, of(&AccountQuotas::dedicated_cores)),
                  used_of(u.spot_cores, of(&AccountQuotas::spot_cores)),
                  used_of(u.pools, of(&AccountQuotas::pools)),
                  used_of(u.active_jobs, of(&AccountQuotas::active_jobs))),
      Role::Default, r.w - kLabel);
  if (r.h < 2) return;
  std::string note = "cores: current nodes × vCPUs of each VM size (from its name)";
  if (!u.unknown_sizes.empty())
    note += ", without " + sanitize_text(fmt::format("{}", fmt::join(u.unknown_sizes, ", ")));
  note += "; " + d.quotas.source;
  c.draw_text_truncated(r.x + kLabel, r.y + 1, note, Role::Dim, r.w - kLabel);
}

// Nodes (dedicated, Spot) and running tasks over the samples, side by side.
void render_history(const PoolDetailData& d, Canvas& c, Rect r, Timestamp now) {
  if (r.h < 3) return;
  if (d.samples.empty()) {
    c.draw_text_truncated(r.x, r.y,
                          "no history yet: the poller keeps a sample each 30 s the pool is polled",
                          Role::Dim, r.w);
    return;
  }
  auto charts = pool_history_charts(d.samples, now);
  int half = r.w / 2;
  render_line_chart(charts.nodes, c, Rect{r.x, r.y, half - 1, r.h});
  render_line_chart(charts.running, c, Rect{r.x + half, r.y, r.w - half, r.h});
}

}  // namespace

std::shared_ptr<const PaneData> read_pool_detail(AppContext& ctx, const Frame& f) {
  auto d = std::make_shared<PoolDetailData>();
  auto pools = ctx.store->pools(f.account);
  if (!pools) return d;
  for (const auto& p : *pools)
    if (p.id == f.pool) d->pool = p;
  if (auto nodes = nodes_as_shown(*ctx.store, f.account, f.pool)) d->tally = tally_nodes(*nodes);
  if (auto samples = ctx.store->pool_samples(f.account, f.pool)) d->samples = std::move(*samples);
  auto jobs = ctx.store->jobs(f.account);
  d->usage = account_usage(*pools, jobs ? *jobs : std::vector<Job>{});
  d->quotas = account_quotas(ctx.data_dir, f.account);
  if (d->pool && f.account != kLocalAccount) {
    auto region = region_of_account(ctx.settings, *ctx.store, f.account);
    if (!region) d->no_region = region.error().message;
    d->burn = pool_burn(*ctx.store, ctx.settings, *d->pool, d->tally, region.value_or(""));
  }
  return d;
}

void render_pool_detail(AppContext& ctx, const TuiState& st, Canvas& c, Rect r) {
  const auto* d = shown_data<PoolDetailData>(st);
  if (!d) return;  // the reader's answer is on its way
  if (!d->pool) {
    c.draw_text(r.x, r.y, "pool not in the cache (deleted, or not listed yet)", Role::StatusError,
                r.w);
    return;
  }
  const Pool& p = *d->pool;
  int y = r.y;
  label(c, r.x, y, "size");
  c.draw_text_truncated(r.x + kLabel, y++, size_text(p), Role::Default, r.w - kLabel);
  label(c, r.x, y, "resize");
  bool resizing = p.allocation_state != AllocationState::Steady;
  c.draw_text_truncated(r.x + kLabel, y++, resize_text(p),
                        resizing ? Role::StatePreparing : Role::Default, r.w - kLabel);
  if (!p.resize_error.empty()) {
    label(c, r.x, y, "errors");
    c.draw_text_truncated(r.x + kLabel, y++, sanitize_text(p.resize_error), Role::StateFailure,
                          r.w - kLabel);
  }
  y += render_cost(*d, c, Rect{r.x, y, r.w, r.bottom() - y});
  y += render_kind("dedicated", d->tally.dedicated, c, Rect{r.x, y, r.w, r.bottom() - y});
  y += render_kind("Spot", d->tally.spot, c, Rect{r.x, y, r.w, r.bottom() - y});
  if (y + 2 <= r.bottom()) {
    render_quotas(*d, c, Rect{r.x, y, r.w, 2});
    y += 2;
  }
  render_history(*d, c, Rect{r.x, y + 1, r.w, r.bottom() - y - 1}, ctx.clock.now());
}

}  // namespace trainyard
