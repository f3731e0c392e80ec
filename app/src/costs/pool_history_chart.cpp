#include "pool_history_chart.hpp"

#include <cmath>

#include <fmt/format.h>

namespace trainyard {
namespace {

int64_t bucket_of(Timestamp at) {
  return std::chrono::duration_cast<std::chrono::seconds>(at.time_since_epoch()).count() /
         kPoolSampleSeconds;
}

// A gap of up to kPoolChartBridgedBuckets between two samples holds the earlier value: a pool's
// size is what it was last seen to be until the next listing says otherwise.
void bridge_short_gaps(std::vector<double>& v) {
  size_t last = v.size();  // the last sampled slot; none yet
  for (size_t i = 0; i < v.size(); ++i) {
    if (std::isnan(v[i])) continue;
    if (last < v.size() && i - last > 1 && i - last <= kPoolChartBridgedBuckets)
      for (size_t j = last + 1; j < i; ++j) v[j] = v[last];
    last = i;
  }
}

// One series of `field` over `slots` buckets from `first`.
Series series_of(const std::vector<PoolSample>& samples, int64_t first, size_t slots,
                 int64_t PoolSample::*field, std::string name, Role role) {
  Series s{std::move(name), std::vector<double>(slots, std::nan("")), role};
  for (const auto& p : samples) {
    auto slot = bucket_of(p.at) - first;
    if (slot >= 0 && static_cast<size_t>(slot) < slots)
      s.values[static_cast<size_t>(slot)] = static_cast<double>(p.*field);
  }
  bridge_short_gaps(s.values);
  return s;
}

LineChartVm chart_of(std::string title, std::string x_left) {
  LineChartVm vm;
  vm.title = std::move(title);
  vm.y_min = 0;
  vm.x_left = std::move(x_left);
  vm.x_right = "now";
  return vm;
}

}  // namespace

PoolHistoryCharts pool_history_charts(const std::vector<PoolSample>& samples, Timestamp now) {
  PoolHistoryCharts out;
  if (samples.empty()) return out;
  int64_t first = bucket_of(samples.front().at);
  auto slots = static_cast<size_t>(std::max<int64_t>(bucket_of(now), bucket_of(samples.back().at)) -
                                   first + 1);
  auto from = format_age(now - samples.front().at) + " ago";
  const auto& last = samples.back();
  out.nodes = chart_of(fmt::format("nodes ({} + {} Spot)", last.dedicated, last.spot), from);
  out.nodes.series = {
      series_of(samples, first, slots, &PoolSample::dedicated, "dedicated", Role::ChartSeries1),
      series_of(samples, first, slots, &PoolSample::spot, "Spot", Role::ChartSeries2)};
  out.running = chart_of(fmt::format("running tasks ({})", last.running_tasks), from);
  out.running.series = {
      series_of(samples, first, slots, &PoolSample::running_tasks, "running", Role::ChartSeries3)};
  return out;
}

}  // namespace trainyard
