#include "pool_insight.hpp"

#include <algorithm>
#include <cctype>

namespace trainyard {
namespace {

// Heatmap and count order: busy first, then free, coming, failed, gone.
int state_rank(NodeState s) {
  switch (node_state_role(s)) {
    case Role::StateRunning:
      return 0;
    case Role::StateActive:
      return 1;
    case Role::StatePreparing:
      return 2;
    case Role::StateFailure:
      return 3;
    default:
      return 4;
  }
}

void add(NodeTally& t, NodeState s) {
  ++t.by_state[s];
  ++t.total;
}

void fill_cells(NodeTally& t) {
  std::vector<NodeState> states;
  for (const auto& entry : t.by_state) states.push_back(entry.first);
  std::stable_sort(states.begin(), states.end(),
                   [](NodeState a, NodeState b) { return state_rank(a) < state_rank(b); });
  for (NodeState s : states) t.cells.insert(t.cells.end(), t.by_state[s], node_state_role(s));
}

}  // namespace

Role node_state_role(NodeState s) {
  switch (s) {
    case NodeState::Idle:
      return Role::StateActive;
    case NodeState::Running:
      return Role::StateRunning;
    case NodeState::Creating:
    case NodeState::Starting:
    case NodeState::WaitingForStartTask:
    case NodeState::Rebooting:
    case NodeState::Reimaging:
    case NodeState::UpgradingOs:
      return Role::StatePreparing;
    case NodeState::Unusable:
    case NodeState::StartTaskFailed:
    case NodeState::Unknown:
      return Role::StateFailure;
    case NodeState::LeavingPool:
    case NodeState::Offline:
    case NodeState::Preempted:
    case NodeState::Deallocated:
    case NodeState::Deallocating:
      return Role::StateDisabled;
  }
  return Role::StateDisabled;
}

PoolTally tally_nodes(const std::vector<Node>& nodes) {
  PoolTally out;
  for (const auto& n : nodes) add(n.is_dedicated ? out.dedicated : out.spot, n.state);
  fill_cells(out.dedicated);
  fill_cells(out.spot);
  return out;
}

std::string tally_text(const NodeTally& t) {
  std::vector<std::pair<NodeState, int64_t>> counts(t.by_state.begin(), t.by_state.end());
  std::stable_sort(counts.begin(), counts.end(), [](const auto& a, const auto& b) {
    return state_rank(a.first) < state_rank(b.first);
  });
  std::string out;
  for (const auto& c : counts)
    out +=
        (out.empty() ? "" : " · ") + std::string(to_wire(c.first)) + " " + std::to_string(c.second);
  return out.empty() ? "none" : out;
}

std::optional<int64_t> vcpus_of(const std::string& vm_size) {
  std::string name = vm_size;
  auto under = name.find('_');
  // `Standard_NC24ads_A100_v4`, `basic_a1`: the size is the part after the tier.
  if (under != std::string::npos) name = name.substr(under + 1);
  size_t i = 0;
  while (i < name.size() && std::isalpha(static_cast<unsigned char>(name[i]))) ++i;
  size_t digits = i;
  while (digits < name.size() && std::isdigit(static_cast<unsigned char>(name[digits]))) ++digits;
  if (i == 0 || digits == i || digits - i > 4) return std::nullopt;
  return std::stoll(name.substr(i, digits - i));
}

AccountUsage account_usage(const std::vector<Pool>& pools, const std::vector<Job>& jobs) {
  AccountUsage u;
  u.pools = static_cast<int64_t>(pools.size());
  for (const auto& p : pools) {
    auto v = vcpus_of(p.vm_size);
    if (!v) {
      if (p.current_dedicated_nodes + p.current_low_priority_nodes > 0)
        u.unknown_sizes.push_back(p.vm_size);
      continue;
    }
    u.dedicated_cores += *v * p.current_dedicated_nodes;
    u.spot_cores += *v * p.current_low_priority_nodes;
  }
  for (const auto& j : jobs)
    if (j.state != JobState::Completed && j.state != JobState::Deleting) ++u.active_jobs;
  return u;
}

}  // namespace trainyard
