#include "core/cost.hpp"

#include <algorithm>

namespace trainyard {

std::optional<double> pool_burn_rate(const PoolNodes& nodes, const NodeRates& rates) {
  int billed_spot = std::max(0, nodes.spot - std::max(0, nodes.preempted));
  double hourly = 0;
  if (nodes.dedicated > 0) {
    if (!rates.dedicated) return std::nullopt;
    hourly += nodes.dedicated * *rates.dedicated;
  }
  if (billed_spot > 0) {
    if (!rates.spot) return std::nullopt;
    hourly += billed_spot * *rates.spot;
  }
  return hourly;
}

std::optional<double> run_cost(const TaskRun& run, const NodeRates& rates, int task_slots_per_node,
                               Timestamp now) {
  const auto& rate = run.on_spot ? rates.spot : rates.dedicated;
  if (!rate) return std::nullopt;
  Timestamp end = run.end.value_or(now);
  double hours = std::chrono::duration<double, std::ratio<3600>>(end - run.start).count();
  double share = std::min(
      1.0, static_cast<double>(std::max(1, run.required_slots)) / std::max(1, task_slots_per_node));
  return std::max(0.0, hours) * *rate * share;
}

std::optional<double> runs_cost(const std::vector<TaskRun>& runs, const NodeRates& rates,
                                int task_slots_per_node, Timestamp now) {
  double total = 0;
  for (const auto& run : runs) {
    auto cost = run_cost(run, rates, task_slots_per_node, now);
    if (!cost) return std::nullopt;
    total += *cost;
  }
  return total;
}

}  // namespace trainyard
