// What compute costs: a pool's burn rate and a job's cost so far, from node counts, task run
// times and hourly prices. Pure arithmetic: the caller brings the prices (discount applied) and
// the clock.
#pragma once

#include <optional>
#include <vector>

#include "core/time.hpp"

namespace trainyard {

/// Hourly prices of one VM size in one region, the discount already applied.
struct NodeRates {
  std::optional<double> dedicated;  ///< per dedicated node hour
  std::optional<double> spot;       ///< per Spot (low-priority) node hour
};

/// Counts of a pool's nodes, as Batch reports them.
struct PoolNodes {
  int dedicated = 0;  ///< currentDedicatedNodes
  int spot = 0;       ///< currentLowPriorityNodes: preempted nodes included
  int preempted = 0;  ///< of `spot`, those preempted (not billed)
};

/// A pool's cost per hour now: dedicated nodes × the dedicated rate + Spot nodes that are not
/// preempted × the Spot rate. nullopt when the pool has billed nodes of a kind without a rate.
std::optional<double> pool_burn_rate(const PoolNodes& nodes, const NodeRates& rates);

/// One stretch of a task on one node: an attempt, or the part of one before its Spot node was
/// preempted (the requeued task's next stretch is another run).
struct TaskRun {
  Timestamp start{};
  std::optional<Timestamp> end;  ///< none: still running
  bool on_spot = false;          ///< on a Spot (low-priority) node
  int required_slots = 1;        ///< requiredSlots
};

/// A run's cost so far: its hours (exactly, no rounding up to whole hours; a run still going
/// counts until `now`) × its node's rate × required_slots / task_slots_per_node (the share of the
/// node it holds, at most all of it). nullopt when its kind of node has no rate.
std::optional<double> run_cost(const TaskRun& run, const NodeRates& rates, int task_slots_per_node,
                               Timestamp now);

/// The sum of run_cost over `runs`; nullopt when any of them has no rate.
std::optional<double> runs_cost(const std::vector<TaskRun>& runs, const NodeRates& rates,
                                int task_slots_per_node, Timestamp now);

}  // namespace trainyard
