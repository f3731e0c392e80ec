// Internal: what the Pool pane shows of a pool, computed from the store's rows: its nodes
// counted by state (dedicated and Spot apart), and the account's cores, pools and active jobs
// against its quotas.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "azure/discovery.hpp"
#include "core/entities.hpp"
#include "widgets/canvas.hpp"

namespace trainyard {

/// One kind of node (dedicated or Spot) of a pool.
struct NodeTally {
  std::map<NodeState, int64_t> by_state;  ///< only states that have nodes
  std::vector<Role> cells;                ///< one per node, grouped by state (heatmap order)
  int64_t total = 0;
};

/// A pool's nodes by kind.
struct PoolTally {
  NodeTally dedicated;
  NodeTally spot;
};

/// Counts `nodes` by kind and state.
PoolTally tally_nodes(const std::vector<Node>& nodes);

/// The colour of a node state: idle, running, starting (and rebooting, reimaging…), failed
/// (unusable, start task failed, unknown), gone (preempted, offline, leaving, deallocated).
Role node_state_role(NodeState s);

/// `running 3 · idle 1`: the tally's counts, busiest states first.
std::string tally_text(const NodeTally& t);

/// The vCPUs of an Azure VM size, read from its name (`Standard_NC24ads_A100_v4` → 24: the
/// number after the family letters, as Azure names sizes); none when the name has none.
std::optional<int64_t> vcpus_of(const std::string& vm_size);

/// What an account may use (the management plane's Batch account properties).
using AccountQuotas = azure::AccountQuotas;

/// What an account uses, from its cached pools and jobs.
struct AccountUsage {
  int64_t dedicated_cores = 0;  ///< Σ pools' current dedicated nodes × the size's vCPUs
  int64_t spot_cores = 0;       ///< Σ pools' current Spot nodes × the size's vCPUs
  int64_t pools = 0;
  int64_t active_jobs = 0;                 ///< jobs not completed (active, disabling, disabled…)
  std::vector<std::string> unknown_sizes;  ///< VM sizes whose vCPUs the name does not say
};

/// Sums `pools` and `jobs` into an account's usage.
AccountUsage account_usage(const std::vector<Pool>& pools, const std::vector<Job>& jobs);

}  // namespace trainyard
