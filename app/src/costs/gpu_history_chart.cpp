#include "gpu_history_chart.hpp"

#include <cmath>

#include <fmt/format.h>

namespace trainyard {
namespace {

// The slot of a point taken at `at`: kGpuChartSeconds - 1 for `newest`, less for older ones;
// negative when it is older than the window.
int slot_of(Timestamp at, Timestamp newest) {
  double age = std::chrono::duration<double>(newest - at).count();
  return kGpuChartSeconds - 1 - static_cast<int>(std::lround(std::max(0.0, age)));
}

// Sampling jitter can put two samples in one second and none in the next: a single empty slot
// between two samples takes the earlier one's value, so the line breaks only where sampling did.
void bridge_single_gaps(std::vector<double>& v) {
  for (size_t i = 1; i + 1 < v.size(); ++i)
    if (std::isnan(v[i]) && !std::isnan(v[i - 1]) && !std::isnan(v[i + 1])) v[i] = v[i - 1];
}

Series utilisation_series(const GpuHistory& h, Timestamp newest, int i) {
  Series s;
  s.name = fmt::format("GPU {}", h.index);
  s.role = static_cast<Role>(static_cast<int>(Role::ChartSeries1) + (i % 6));
  s.values.assign(kGpuChartSeconds, std::nan(""));
  for (const auto& p : h.points) {
    int slot = slot_of(p.at, newest);
    if (slot >= 0 && p.util_percent) s.values[static_cast<size_t>(slot)] = *p.util_percent;
  }
  bridge_single_gaps(s.values);
  return s;
}

}  // namespace

LineChartVm gpu_history_chart(const std::vector<GpuHistory>& history, Timestamp newest) {
  LineChartVm vm;
  vm.title = "utilisation % (last 10 min)";
  vm.y_min = 0;
  vm.y_max = 100;
  vm.x_left = "10 min ago";
  vm.x_right = "now";
  int i = 0;
  for (const auto& h : history) vm.series.push_back(utilisation_series(h, newest, i++));
  return vm;
}

}  // namespace trainyard
