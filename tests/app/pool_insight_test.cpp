#include "pool_insight.hpp"

#include <gtest/gtest.h>

namespace trainyard::pool_insight_test {
namespace {

Node node(NodeState s, bool dedicated) {
  Node n;
  n.state = s;
  n.is_dedicated = dedicated;
  return n;
}

// Dedicated: 2 running, 1 idle, 1 starting, 1 unusable; Spot: 1 preempted, 1 running, 1 waiting
// for its start task.
TEST(PoolInsight, NodesCountedByKindAndState) {
  using S = NodeState;
  auto t = tally_nodes({node(S::Running, true), node(S::Idle, true), node(S::Preempted, false),
                        node(S::Starting, true), node(S::Running, false), node(S::Unusable, true),
                        node(S::Running, true), node(S::WaitingForStartTask, false)});
  EXPECT_EQ(t.dedicated.total, 5);
  EXPECT_EQ(t.dedicated.by_state,
            (std::map<NodeState, int64_t>{
                {S::Running, 2}, {S::Idle, 1}, {S::Starting, 1}, {S::Unusable, 1}}));
  EXPECT_EQ(t.spot.total, 3);
  EXPECT_EQ(t.spot.by_state.at(S::Preempted), 1);
  EXPECT_EQ(tally_text(t.dedicated), "running 2 · idle 1 · starting 1 · unusable 1");
  EXPECT_EQ(tally_text(t.spot), "running 1 · waitingforstarttask 1 · preempted 1");
  // The heatmap's squares: one per node, grouped busy first.
  EXPECT_EQ(t.dedicated.cells,
            (std::vector<Role>{Role::StateRunning, Role::StateRunning, Role::StateActive,
                               Role::StatePreparing, Role::StateFailure}));
  EXPECT_EQ(t.spot.cells,
            (std::vector<Role>{Role::StateRunning, Role::StatePreparing, Role::StateDisabled}));
  EXPECT_EQ(tally_text(tally_nodes({}).spot), "none");
}

TEST(PoolInsight, VcpusFromTheSizeName) {
  EXPECT_EQ(vcpus_of("Standard_NC24ads_A100_v4"), 24);
  EXPECT_EQ(vcpus_of("standard_d2s_v3"), 2);
  EXPECT_EQ(vcpus_of("Standard_ND96asr_v4"), 96);
  EXPECT_EQ(vcpus_of("STANDARD_A1"), 1);
  EXPECT_EQ(vcpus_of("Standard_E64-32s_v3"), 64);  // constrained: the quota counts all 64
  EXPECT_EQ(vcpus_of("gpu-vm"), std::nullopt);
  EXPECT_EQ(vcpus_of(""), std::nullopt);
}

Pool pool(const std::string& size, int dedicated, int spot) {
  Pool p;
  p.vm_size = size;
  p.current_dedicated_nodes = dedicated;
  p.current_low_priority_nodes = spot;
  return p;
}

Job job(JobState s) {
  Job j;
  j.state = s;
  return j;
}

// Cores: 24 × (2 dedicated, 1 Spot) + 4 × (3, 5) = 48 + 12 dedicated, 24 + 20 Spot; a pool of
// an unknown size with nodes is named, an empty one is not. Jobs: all but completed and deleting.
TEST(PoolInsight, UsageSumsCoresPoolsAndActiveJobs) {
  auto u = account_usage({pool("Standard_NC24ads_A100_v4", 2, 1), pool("standard_d4s_v3", 3, 5),
                          pool("mystery", 1, 0), pool("odd", 0, 0)},
                         {job(JobState::Active), job(JobState::Disabled), job(JobState::Completed),
                          job(JobState::Terminating), job(JobState::Deleting)});
  EXPECT_EQ(u.dedicated_cores, 60);
  EXPECT_EQ(u.spot_cores, 44);
  EXPECT_EQ(u.pools, 4);
  EXPECT_EQ(u.active_jobs, 3);
  EXPECT_EQ(u.unknown_sizes, std::vector<std::string>{"mystery"});
}

}  // namespace
}  // namespace trainyard::pool_insight_test
